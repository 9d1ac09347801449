// swift-tools-version: 6.2
// CacheScope's benchmarks: a package of its own (so `swift test` never builds it), depending on
// the main package by path. Run in release mode, e.g.:
//   swift run -c release --package-path Benchmarks ClientBenchmarks
// Each prints PASS/FAIL lines against the targets the issues name, and compares with peers
// measured in the same run.
import PackageDescription

/// Dependencies on CacheScope's own products.
func cacheScope(_ names: [String]) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "CacheScope") }
}

let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")

/// A benchmark executable: BenchmarkSupport, swift-http-types, the CacheScope products it
/// names, and `also`.
func benchmark(_ name: String, _ modules: String..., also: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["BenchmarkSupport", httpTypes] + cacheScope(modules) + also)
}

let package = Package(
    name: "CacheScopeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "CacheScope", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Counts every malloc in the process (AllocationBenchmarks only): one C file and a thin
        // Swift wrapper, no dependencies of its own.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: cacheScope(["CacheEvents", "CachingClient"]) + [httpTypes, asyncHTTPClient]
        ),
        benchmark("StoreBenchmarks", "CacheStore", "HTTPCaching"),
        benchmark(
            "ClientBenchmarks", "CachingClient", "CacheStore", "CacheEvents", "DemoOrigin", "HTTPCaching", "CacheMetrics", "CacheScopeApp",
            also: [
                asyncHTTPClient, .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        benchmark(
            "SessionLogBenchmarks", "CacheEvents", "SessionLog", "CacheStore", "HTTPCaching", "DemoOrigin", "TrafficFilter",
            "CacheScopeApp"),
        benchmark("DashboardBenchmarks", "Dashboard", "CacheEvents", "CacheStore", "HTTPCaching", "TerminalUI", "DemoOrigin", "TrafficFilter"),
        benchmark(
            "SharedTierBenchmarks", "CachingClient", "SharedTier", "DemoOrigin", "HTTPCaching", "CacheEvents", "CacheStore",
            also: [asyncHTTPClient, .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        benchmark(
            "AllocationBenchmarks", "CachingClient", "CacheEvents", "CacheStore", "HTTPCaching", "DemoOrigin", "Dashboard", "SessionLog",
            "CacheMetrics",
            also: [asyncHTTPClient, .product(name: "MallocInterposerSwift", package: "malloc-interposer")]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
