// swift-tools-version:6.0
import PackageDescription

// libcarfit: the headless core of the CarFit washer app, shipped as a C-ABI shared library.
//
//   CJansson, CSQLite   system libraries (Debian: libjansson-dev, libsqlite3-dev)
//   CarFitCore          the domain in plain Swift: value types, no C pointers, unit-tested directly
//   CarFitStore         SQLite through its C API: a small wrapper, the schema and its migrations
//   CarFit              the export layer: one boundary routine, the operation table, @c exports
//   CarFitLink          link-only: static Swift runtime, exported-symbol list and SONAME for the .so

let exportsMap = Context.packageDirectory + "/Sources/CarFitLink/exports.map"

let package = Package(
    name: "carfit",
    products: [
        .library(name: "carfit", type: .dynamic, targets: ["CarFit", "CarFitLink"]),
    ],
    targets: [
        .systemLibrary(name: "CJansson", path: "Sources/CJansson", pkgConfig: "jansson",
                       providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CarFitCore"),
        .target(name: "CarFitStore", dependencies: ["CSQLite", "CarFitCore"]),
        .target(name: "CarFit", dependencies: ["CJansson", "CarFitCore", "CarFitStore"]),
        .target(
            name: "CarFitLink",
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib",
                    "-Xlinker", "--version-script=\(exportsMap)",
                    "-Xlinker", "-soname=libcarfit.so.1",
                ]),
                // Foundation's static archives need these explicitly when the runtime is static.
                .linkedLibrary("_FoundationCollections"),
                .linkedLibrary("_FoundationCShims"),
                .linkedLibrary("CoreFoundation"),
                .linkedLibrary("_FoundationICU"),
                .linkedLibrary("swiftSynchronization"),
                .linkedLibrary("_CFURLSessionInterface"),
                .linkedLibrary("curl"),
            ]
        ),
        .testTarget(name: "CarFitCoreTests", dependencies: ["CarFitCore"], exclude: ["Fixtures"]),
        .testTarget(name: "CarFitABITests", dependencies: [], exclude: ["Fixtures"]),
        .testTarget(name: "CarFitTests", dependencies: ["CarFit"]),
    ]
)
