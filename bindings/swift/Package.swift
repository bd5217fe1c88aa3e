// swift-tools-version:6.0
// CarFitKit: a typed Swift package over libcarfit's C header (include/carfit.h) alone. It links the
// library built elsewhere: found by pkg-config `carfit` (after `make install`), else in this
// repository's .build/release (after `make`), which is then the linker's search path and the
// run path; else pass the library's directory to the linker (see README.md).
import Foundation
import PackageDescription

/// Whether pkg-config knows `carfit` (an installed library).
func pkgConfigKnowsCarfit() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--exists", "carfit"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    } catch {
        return false
    }
}

/// The repository's own build of the library, when there is one and none is installed.
let repositoryBuild: String? = {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/release").standardizedFileURL.path
    guard FileManager.default.fileExists(atPath: directory + "/libcarfit.so"), !pkgConfigKnowsCarfit() else { return nil }
    return directory
}()

let package = Package(
    name: "CarFitKit",
    products: [
        .library(name: "CarFitKit", targets: ["CarFitKit"]),
    ],
    targets: [
        // The C header and `-lcarfit`, nothing of the library's Swift modules.
        .systemLibrary(name: "CCarFit", path: "Sources/CCarFit", pkgConfig: "carfit"),
        .target(name: "CarFitKit", dependencies: ["CCarFit"],
                linkerSettings: repositoryBuild.map { [.unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])] } ?? []),
        .testTarget(name: "CarFitKitTests", dependencies: ["CarFitKit"]),
    ]
)
