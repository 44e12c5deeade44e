// swift-tools-version:6.1
import PackageDescription

let strictSwift6: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierURLSession", targets: ["CourierURLSession"]),
        .library(name: "CourierCompression", targets: ["CourierCompression"]),
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierSQLite", targets: ["CourierSQLite"]),
        .library(name: "CourierPostgres", targets: ["CourierPostgres"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .library(name: "RadarCore", targets: ["RadarCore"]),
        .library(name: "RadarAPI", targets: ["RadarAPI"]),
        // ClarityOpenAPI holds the wire types ClarityAPI's calls take and answer, and their date form.
        .library(name: "ClarityAPI", targets: ["ClarityAPI", "ClarityOpenAPI"]),
        .library(name: "IntervalsCore", targets: ["IntervalsCore"]),
        .library(name: "IntervalsAPI", targets: ["IntervalsAPI"]),
        .library(name: "ReferenceServer", targets: ["ReferenceServer"]),
        .library(name: "CacheConformance", targets: ["CacheConformance"]),
        .executable(name: "courier", targets: ["CourierCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        // Only scripts/docs.sh uses it (`swift package generate-documentation`); no build compiles it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierCompression",
            dependencies: [
                "Courier",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                "CourierCompression",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                "Courier",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSwift6
        ),
        // A client generated from Sources/ReferenceServer/OpenAPI/openapi.yaml by
        // scripts/openapi-generate.sh and committed, so that no build runs the generator.
        .target(
            name: "ReferenceAPIClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml", "document.sha256"],
            // Generated code, not edited: its imports are the generator's, and some of its files
            // import modules they do not use publicly, which Swift warns about. The target is
            // not a product, so the unsafe flag never reaches a package that depends on Courier.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
        // The CLARITY backend's client, generated by scripts/openapi-generate.sh from its
        // published document (Contracts/clarity-backend/openapi.json) and committed;
        // ClarityAPI is the hand-written layer above it.
        .target(
            name: "ClarityOpenAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml", "document.sha256"],
            // Generated code, not edited; see ReferenceAPIClient for why its warnings are off.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
        // The server side of the same document: the stubs the reference server's CLARITY routes
        // implement (`APIProtocol` and its `registerHandlers`), generated by the same script from
        // the same input, over ClarityOpenAPI's types.
        .target(
            name: "ClarityOpenAPIServer",
            dependencies: [
                "ClarityOpenAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"],
            // Generated code, not edited; see ReferenceAPIClient for why its warnings are off.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
        .target(
            name: "CourierURLSession",
            dependencies: ["Courier", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierTesting",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierSQLite",
            dependencies: [
                "Courier",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierPostgres",
            dependencies: [
                "Courier",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CourierWebSocket",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(name: "RadarCore", swiftSettings: strictSwift6),
        .target(
            name: "RadarAPI",
            dependencies: [
                "Courier", "CourierWebSocket", "RadarCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "ClarityAPI",
            dependencies: [
                "Courier", "ClarityOpenAPI", "CourierOpenAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(name: "IntervalsCore", swiftSettings: strictSwift6),
        .target(
            name: "IntervalsAPI",
            dependencies: ["Courier", "IntervalsCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "ReferenceServer",
            dependencies: [
                "RadarCore",
                "ClarityOpenAPI",
                "ClarityOpenAPIServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "IntervalsCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.copy("OpenAPI/openapi.yaml")],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "CacheConformance",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "CourierCLI",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient", "CourierURLSession", "CourierCompression", "CourierTesting", "RadarCore", "RadarAPI", "ReferenceServer",
                "ClarityAPI", "ClarityOpenAPI", "CacheConformance", "CourierSQLite", "IntervalsCore", "IntervalsAPI", "CourierWebSocket",
                "CourierPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                "CourierOpenAPI", "ReferenceAPIClient",
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier", "CourierTesting", "CourierAsyncHTTPClient", "CourierURLSession", "CourierSQLite", "CourierCompression",
                "CourierOpenAPI", "ReferenceAPIClient", "ClarityOpenAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                "RadarCore", "RadarAPI", "ReferenceServer", "ClarityAPI", "CacheConformance", "IntervalsCore", "IntervalsAPI", "CourierWebSocket", "CourierCLI",
                "CourierPostgres", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSwift6
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, declared only when COURIER_FUZZ is set, so the normal build never sees
// them: `scripts/fuzz.sh TARGET SECONDS` builds and runs one (see its header). They live in
// this package so that they can reach `package` symbols. `-parse-as-library` because a
// fuzz target has no top-level code: libFuzzer drives it (see Fuzz/CourierFuzzSupport).
if Context.environment["COURIER_FUZZ"] != nil {
    let fuzzSettings: [SwiftSetting] = strictSwift6 + [.unsafeFlags(["-parse-as-library"])]
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzCacheControl", ["Courier"]),
        ("FuzzRetryAfter", ["Courier"]),
        ("FuzzHTTPDate", ["Courier"]),
        ("FuzzServerSentEvents", ["Courier", "CourierWebSocket"]),
        ("FuzzMultipart", ["ReferenceServer"]),
        ("FuzzRadarUpdate", ["RadarCore"]),
        ("FuzzCachePayload", ["Courier", "CourierSQLite", .product(name: "HTTPTypes", package: "swift-http-types")]),
        ("FuzzQueueRow", ["Courier", "CourierSQLite", .product(name: "GRDB", package: "GRDB.swift")]),
        ("FuzzRequestTarget", ["Courier"]),
    ]
    package.targets.append(.target(name: "CourierFuzzSupport", path: "Fuzz/CourierFuzzSupport"))
    for fuzzTarget in fuzzTargets {
        package.targets.append(.executableTarget(
            name: fuzzTarget.name,
            dependencies: ["CourierFuzzSupport"] + fuzzTarget.dependencies,
            path: "Fuzz/\(fuzzTarget.name)",
            swiftSettings: fuzzSettings
        ))
        package.products.append(.executable(name: fuzzTarget.name, targets: [fuzzTarget.name]))
    }
}
