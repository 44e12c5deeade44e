// swift-tools-version: 6.1
import PackageDescription

// Allocation counts of Courier's hot paths, with ordo-one/benchmark. A package of its own, as
// swift-nio and swift-certificates keep theirs, so the main build never sees the benchmark
// tool. Run it with scripts/benchmarks.sh from the repository's root.
let package = Package(
    name: "CourierBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Courier", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        .executableTarget(
            name: "CourierAllocations",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierAsyncHTTPClient", package: "Courier"),
                .product(name: "CourierURLSession", package: "Courier"),
                .product(name: "CourierSQLite", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "ReferenceServer", package: "Courier"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/CourierAllocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
