// swift-tools-version:6.0
// carfit-planner: the planner's back end that libcarfit's sync protocol talks to.
//
//   PlannerServer    the store protocol and its SQLite and PostgreSQL implementations, the
//                    washer's and the planner's HTTP API, the board page, the commands
//   PlannerPush      push delivery to FCM (HTTP v1, OAuth with a service account) and APNs
//                    (HTTP/2, ES256 provider tokens) from the queue the store keeps
//   carfit-planner   the executable: `serve`, `washer add`, `washer token`
import PackageDescription

let package = Package(
    name: "carfit-planner",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "carfit-planner", targets: ["carfit-planner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.21.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.60.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.25.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.30.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(name: "CPlannerSQLite", path: "Sources/CPlannerSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "PlannerPush", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .target(name: "PlannerServer", dependencies: [
            "CPlannerSQLite", "PlannerPush",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .executableTarget(name: "carfit-planner", dependencies: ["PlannerServer", "PlannerPush"]),
        .testTarget(name: "PlannerPushTests", dependencies: [
            "PlannerPush",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .testTarget(name: "PlannerServerTests", dependencies: [
            "PlannerServer", "PlannerPush",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ]
)
