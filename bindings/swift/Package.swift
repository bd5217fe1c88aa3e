// swift-tools-version:6.0
// CarFitKit: a typed Swift package over libcarfit's C header (include/carfit.h) alone. It links the
// library built elsewhere: found by pkg-config `carfit` (after `make install`), else pass its
// directory to the linker (see README.md; `bindings/swift/test` does so for the repository's
// .build/release).
import PackageDescription

let package = Package(
    name: "CarFitKit",
    products: [
        .library(name: "CarFitKit", targets: ["CarFitKit"]),
    ],
    targets: [
        // The C header and `-lcarfit`, nothing of the library's Swift modules.
        .systemLibrary(name: "CCarFit", path: "Sources/CCarFit", pkgConfig: "carfit"),
        .target(name: "CarFitKit", dependencies: ["CCarFit"]),
        .testTarget(name: "CarFitKitTests", dependencies: ["CarFitKit"], exclude: ["Resources"]),
    ]
)
