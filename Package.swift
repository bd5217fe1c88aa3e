// swift-tools-version:6.0
import PackageDescription

// libcarfit: the headless core of the CarFit washer app, shipped as a C-ABI shared library.
// docs/ARCHITECTURE.md describes the layers; Tests/system/test_architecture.py holds them.
//
//   CJansson            system library (Debian: libjansson-dev)
//   CSQLite             SQLite built in: the amalgamation from Debian's source package, symbols hidden
//   CCrypto             libcrypto (Debian: libssl-dev), the SHA-256 of attachments
//   CCarFit             include/carfit.h as a module (the version macros)
//   CTextScan           C: byte scans of UTF-8 text for the encoder (what to escape, UTF-8 checks), 16 bytes at a time
//   CarFitCore          the domain in plain Swift: value types and rules, no I/O, no system calls (math aside), unit-tested directly
//   CarFitSystem        POSIX primitives the layers above share: locks, conditions, threads, clocks; the domain's clock, random bits and zone files
//   CarFitIO            JSON text in and out: jansson parsing, the encoder's buffer, streamed imports
//   CarFitStore         SQLite through its C API: a small wrapper, the schema and its migrations, stores (no JSON text)
//   CarFitHTTP          a blocking HTTP client on libcurl (CCurl): streamed bodies, bounded waits
//   CarFitNet           the core's HTTP (sources and images, on CarFitHTTP) and the image pipeline
//   CarFitServices      the use-cases, as functions of their stores and clients
//   CarFitAPI           the typed API: each operation's request read from its document, its response written
//   CarFit              the boundary: the operation manifest, one boundary routine, handles, @c exports
//   CarFitLink          link-only: static Swift runtime, exported-symbol list and SONAME for the .so

// Every Swift function in a section of its own, and public symbols not kept for their own sake:
// the link's --gc-sections then drops what nothing reaches (the library exports only carfit_*).
let swiftCode: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections", "-Xfrontend", "-internalize-at-link"],
                 .when(configuration: .release)),
]

let exportsMap = Context.packageDirectory + "/Sources/CarFitLink/exports.map"

let package = Package(
    name: "carfit",
    products: [
        .library(name: "carfit", type: .dynamic, targets: ["CarFit", "CarFitLink"]),
    ],
    targets: [
        .systemLibrary(name: "CJansson", path: "Sources/CJansson", pkgConfig: "jansson",
                       providers: [.apt(["libjansson-dev"])]),
        // SQLite built in (sqlite3.c, the amalgamation; csqlite.c holds its options): every
        // sqlite3_ symbol hidden, so the library neither exports one nor binds to a host's SQLite.
        // carfit_crypt.c: the encrypting VFS (ChaCha20-Poly1305 on libcrypto) for a keyed database.
        // The C targets write DWARF 4 (-gdwarf-4): Debian 12's valgrind 3.19 gives up on clang's
        // default DWARF 5 in this library, and the hardening checks run the examples under it.
        .target(name: "CSQLite", dependencies: ["CCrypto"], exclude: ["sqlite3.c"],
                cSettings: [.unsafeFlags(["-Wno-everything", "-gdwarf-4"])]),
        // include/carfit.h as a module: the library reads its version from the header's macros.
        .systemLibrary(name: "CCarFit", path: "Sources/CCarFit"),
        // Byte scans of UTF-8 text for the encoder, sixteen bytes at a time (SSE2 on x86-64).
        .target(name: "CTextScan", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "CarFitCore", swiftSettings: swiftCode),
        .target(name: "CarFitSystem", dependencies: ["CarFitCore"], swiftSettings: swiftCode),
        // Sealed files: the chunked ChaCha20-Poly1305 of attachments, downloads and cached images.
        .target(name: "CCipher", dependencies: ["CCrypto"], cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "CarFitIO", dependencies: ["CJansson", "CarFitCore", "CarFitSystem", "CCrypto", "CCipher", "CTextScan"], swiftSettings: swiftCode),
        .target(name: "CarFitStore", dependencies: ["CSQLite", "CarFitCore"], swiftSettings: swiftCode),
        .target(name: "CarFitNet", dependencies: ["CarFitCore", "CarFitSystem", "CarFitHTTP"], swiftSettings: swiftCode),
        .target(name: "CarFitServices", dependencies: ["CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP"], swiftSettings: swiftCode),
        .target(name: "CarFitAPI", dependencies: ["CarFitCore", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP", "CarFitServices"], swiftSettings: swiftCode),
        .target(name: "CarFit", dependencies: ["CCarFit", "CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP", "CarFitServices", "CarFitAPI"], swiftSettings: swiftCode),
        .target(
            name: "CarFitLink",
            exclude: ["exports.map"],
            linkerSettings: [
                // lld, not the driver's default gold: gold leaves symbols the version script made
                // local in the dynamic symbol table when a GOT entry (CarFitCore's metadata reached
                // from CarFit) or a TLS relocation (libdispatch's __dispatch_tsd) refers to them.
                .unsafeFlags([
                    "-static-stdlib",
                    "-use-ld=lld",
                    "-Xlinker", "--version-script=\(exportsMap)",
                    "-Xlinker", "-soname=libcarfit.so.1",
                    // Size: identical functions folded into one (the many identical generic
                    // specializations), and the ~20,000 relative relocations of the Swift metadata
                    // packed as DT_RELR (glibc 2.36, Debian 12) instead of 24-byte RELA entries.
                    "-Xlinker", "--icf=all",
                    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                ]),
                .linkedLibrary("swiftSynchronization"),
                .linkedLibrary("curl"),
            ]
        ),
        .testTarget(name: "CarFitCoreTests", dependencies: ["CarFitCore", "CarFitIO"], exclude: ["Fixtures"]),
        .testTarget(name: "CarFitIOTests", dependencies: ["CarFitCore", "CarFitSystem", "CarFitIO"]),
        .testTarget(name: "CarFitSystemTests", dependencies: ["CarFitCore", "CarFitSystem"]),
        .testTarget(name: "CarFitABITests", dependencies: [], exclude: ["Fixtures"]),
        .testTarget(name: "CarFitServicesTests", dependencies: ["CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP", "CarFitServices", "CarFitAPI"]),
        .testTarget(name: "CarFitAPITests", dependencies: ["CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitServices", "CarFitAPI"]),
        .testTarget(name: "CarFitTests", dependencies: ["CCarFit", "CarFit"]),
        .testTarget(name: "CarFitStoreTests", dependencies: ["CarFitStore", "CarFitCore"], exclude: ["Fixtures"]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto (libcurl4-openssl's own dependency): the attachments' SHA-256.
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .target(name: "CarFitHTTP", dependencies: ["CCurl"], swiftSettings: swiftCode),
        .executableTarget(name: "CarFitHTTPCheck", dependencies: ["CarFitHTTP"], path: "Tests/CarFitHTTPCheck"),
        .testTarget(name: "CarFitHTTPTests", dependencies: ["CarFitHTTP"]),
    ]
)
