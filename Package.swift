// swift-tools-version: 6.2
import PackageDescription

/// With `CACHESCOPE_LINE_TABLES_ONLY=1` (what `.ci/run` sets: CI builds everything from scratch
/// within its 20 minutes), debug builds of our targets keep line tables — backtraces and test
/// failures still name file and line — but not full debug info: about 10 % less build time.
/// Never set otherwise, so a package depending on CacheScope by version meets no unsafe flag
/// (SwiftPM refuses them from such dependencies).
let lineTablesOnly: [SwiftSetting] =
    Context.environment["CACHESCOPE_LINE_TABLES_ONLY"] == "1"
    ? [.unsafeFlags(["-gline-tables-only"], .when(configuration: .debug))] : []

/// Settings every target of ours is built with: Swift 6 language mode comes from the tools
/// version; `ExistentialAny` keeps `any` visible where a protocol is used as a type;
/// `InternalImportsByDefault` and `MemberImportVisibility` make each file say what it imports,
/// and which of its imports its public API exposes (`public import`).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
] + lineTablesOnly

/// The package each external product comes from, so the target lists below name products
/// alone: `products("NIOCore", "Logging")`.
let packageOfProduct: [String: String] = [
    "HTTPTypes": "swift-http-types", "ArgumentParser": "swift-argument-parser", "PropertyBased": "swift-property-based",
    "Logging": "swift-log", "Crypto": "swift-crypto", "SystemPackage": "swift-system",
    "NIOCore": "swift-nio", "NIOPosix": "swift-nio", "NIOHTTP1": "swift-nio", "NIOFoundationCompat": "swift-nio",
    "NIOEmbedded": "swift-nio", "AsyncHTTPClient": "async-http-client", "Tracing": "swift-distributed-tracing",
    "UnixSignals": "swift-service-lifecycle", "RawStructuredFieldValues": "swift-http-structured-headers",
    "PostgresNIO": "postgres-nio", "NIOSSL": "swift-nio-ssl",
    "CoreMetrics": "swift-metrics", "Prometheus": "swift-prometheus",
]

/// Dependencies on external products, by product name.
func products(_ names: String...) -> [Target.Dependency] {
    names.map { name in
        guard let package = packageOfProduct[name] else { fatalError("Package.swift: no package for product \(name)") }
        return .product(name: name, package: package)
    }
}

let package = Package(
    name: "CacheScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "CacheEvents", targets: ["CacheEvents"]),
        .library(name: "TrafficFilter", targets: ["TrafficFilter"]),
        .library(name: "SessionLog", targets: ["SessionLog"]),
        .library(name: "CacheStore", targets: ["CacheStore"]),
        .library(name: "SharedTier", targets: ["SharedTier"]),
        .library(name: "CachingClient", targets: ["CachingClient"]),
        .library(name: "CachingProxy", targets: ["CachingProxy"]),
        .library(name: "CacheMetrics", targets: ["CacheMetrics"]),
        .library(name: "DemoOrigin", targets: ["DemoOrigin"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "CacheAttach", targets: ["CacheAttach"]),
        .library(name: "Dashboard", targets: ["Dashboard"]),
        .library(name: "CacheScopeApp", targets: ["CacheScopeApp"]),
        .executable(name: "cachescope", targets: ["cachescope"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already in the graph through AsyncHTTPClient; named to recognise its no-op tracer.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // Both in the graph through AsyncHTTPClient already: signal handling and file descriptors.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // Cache-Status (RFC 9211) is a structured field list: serialized, never concatenated.
        .package(url: "https://github.com/apple/swift-http-structured-headers.git", from: "1.7.0"),
        // The shared cache tier (docs/shared-tier.md): a connection pool, LISTEN/NOTIFY for purges.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already in the graph through postgres-nio: the shared tier's sslmode=prefer|require.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.36.0"),
        // Metrics: the library reports through swift-metrics (an app picks its backend); the
        // commands serve them to Prometheus.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // MARK: Rules
        .target(name: "HTTPCaching", dependencies: products("HTTPTypes")),

        // MARK: Store
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]
        ),
        .target(
            name: "CacheStore",
            dependencies: ["HTTPCaching", "CSQLite"] + products("Crypto", "Logging", "HTTPTypes", "SystemPackage")
        ),
        .executableTarget(
            name: "CacheStoreCrashHelper",
            dependencies: ["CacheStore", "HTTPCaching"] + products("HTTPTypes")
        ),

        // MARK: A failed connection's reason in words, for the origin's and the shared tier's errors
        .target(name: "ConnectionErrors", dependencies: products("NIOCore", "NIOPosix")),

        // MARK: The shared tier: cache entries on PostgreSQL, shared by every instance
        .target(
            name: "SharedTier",
            dependencies: ["HTTPCaching", "CacheStore", "ConnectionErrors"] + products("PostgresNIO", "Logging", "NIOCore", "NIOSSL")
        ),

        // MARK: Events
        .target(name: "CacheEvents", dependencies: ["HTTPCaching", "CacheStore"] + products("HTTPTypes")),

        // MARK: The filter language (pure: parsing and matching, no I/O)
        .target(name: "TrafficFilter", dependencies: ["CacheEvents", "CacheStore", "HTTPCaching"] + products("HTTPTypes")),

        // MARK: Session logs (format, reading, recording, replay, summary, HAR)
        .target(
            name: "SessionLog",
            dependencies: ["CacheEvents", "CacheStore", "HTTPCaching", "TrafficFilter"] + products("HTTPTypes", "SystemPackage")
        ),

        // MARK: The client
        .target(
            name: "CachingClient",
            dependencies: ["HTTPCaching", "CacheStore", "CacheEvents", "SharedTier", "TrafficFilter", "ConnectionErrors"]
                + products("AsyncHTTPClient", "HTTPTypes", "NIOCore", "NIOHTTP1", "Tracing")
        ),

        // MARK: The caching reverse proxy: an HTTP/1.1 server in front of a shared-mode client
        .target(
            name: "CachingProxy",
            dependencies: ["CachingClient", "HTTPCaching", "ConnectionErrors"]
                + products("HTTPTypes", "NIOCore", "NIOPosix", "NIOHTTP1", "Logging", "RawStructuredFieldValues")
        ),

        // MARK: Metrics: a client's events as swift-metrics counters, gauges and timers
        .target(name: "CacheMetrics", dependencies: ["CacheEvents", "CacheStore", "HTTPCaching"] + products("CoreMetrics")),

        // MARK: Attach
        .target(
            name: "CacheAttach",
            dependencies: ["CacheEvents", "SessionLog"]
                + products("NIOCore", "NIOPosix", "NIOFoundationCompat", "Logging", "SystemPackage")
        ),

        // MARK: Demo origin and workload
        .target(
            name: "DemoOrigin",
            dependencies: ["HTTPCaching", "ConnectionErrors"] + products("NIOCore", "NIOPosix", "NIOHTTP1", "Logging")
        ),

        // MARK: Terminal
        // No `pkgConfig:`: ncursesw's .pc adds -D flags SwiftPM rejects with a warning; the
        // module map links ncursesw and the shim includes <ncursesw/curses.h> directly.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .yum(["ncurses-devel"])]
        ),
        .target(
            name: "TerminalUI",
            dependencies: ["CNcurses"] + products("Logging", "SystemPackage", "UnixSignals"),
            resources: [.embedInCode("Resources/themes")]
        ),

        // MARK: Dashboard
        .target(
            name: "Dashboard",
            dependencies: ["CacheEvents", "CacheStore", "SessionLog", "HTTPCaching", "TerminalUI", "TrafficFilter"]
                + products("Logging", "HTTPTypes")
        ),

        // MARK: The application layer: what the commands do, testable without the executable
        .target(
            name: "CacheScopeApp",
            dependencies: [
                "HTTPCaching", "CacheStore", "CacheEvents", "SessionLog", "CachingClient", "CachingProxy", "CacheAttach",
                "DemoOrigin", "TerminalUI", "Dashboard", "TrafficFilter", "CacheMetrics", "SharedTier", "ConnectionErrors",
            ] + products("Logging", "HTTPTypes", "UnixSignals", "SystemPackage", "Prometheus", "NIOCore", "NIOPosix", "NIOHTTP1")
        ),

        // MARK: The executable: argument parsing and wiring only
        .executableTarget(
            name: "cachescope",
            dependencies: [
                "CacheScopeApp", "HTTPCaching", "CacheEvents", "SessionLog", "CachingClient", "CachingProxy", "CacheAttach",
                "DemoOrigin", "TerminalUI", "Dashboard", "TrafficFilter", "SharedTier",
            ] + products("ArgumentParser", "HTTPTypes")
        ),

        // MARK: Tests
        // What several test targets share: a temporary directory, hand-written session logs.
        .target(name: "TestFixtures", path: "Tests/TestFixtures"),
        .testTarget(name: "DemoOriginTests", dependencies: ["DemoOrigin"]),
        .testTarget(
            name: "TrafficFilterTests",
            dependencies: ["TrafficFilter", "CacheEvents", "CacheStore", "HTTPCaching"] + products("HTTPTypes")
        ),
        .testTarget(name: "CacheEventsTests", dependencies: ["CacheEvents", "CacheStore", "HTTPCaching"]),
        .testTarget(
            name: "SessionLogTests",
            dependencies: ["SessionLog", "CacheEvents", "CacheStore", "HTTPCaching", "DemoOrigin", "TestFixtures", "TrafficFilter"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CacheScopeAppTests",
            dependencies: [
                "CacheScopeApp", "CachingClient", "CachingProxy", "SessionLog", "CacheEvents", "HTTPCaching", "DemoOrigin", "TestFixtures",
                "CacheAttach", "CacheStore", "Dashboard", "TrafficFilter",
            ] + products("HTTPTypes")
        ),
        .testTarget(
            name: "CacheStoreTests",
            dependencies: ["CacheStore", "CacheStoreCrashHelper", "HTTPCaching"]
                + products("HTTPTypes", "Crypto", "SystemPackage")
        ),
        .testTarget(
            name: "DashboardTests",
            dependencies: ["Dashboard", "CacheEvents", "CacheStore", "SessionLog", "HTTPCaching", "TerminalUI", "TrafficFilter"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "DashboardEndToEndTests", dependencies: ["cachescope", "DemoOrigin", "TestFixtures"]),
        .testTarget(
            name: "CachingClientTests",
            dependencies: ["CachingClient", "CacheStore", "CacheEvents", "HTTPCaching", "DemoOrigin", "ConnectionErrors"]
                + products("AsyncHTTPClient", "NIOCore")
        ),
        .testTarget(
            name: "CachingProxyTests",
            dependencies: ["CachingProxy", "CachingClient", "CacheStore", "HTTPCaching", "DemoOrigin"]
                + products("NIOCore", "NIOPosix", "NIOHTTP1", "HTTPTypes")
        ),
        .testTarget(
            name: "CacheAttachTests",
            dependencies: ["CacheAttach", "CacheEvents", "CacheStore", "SessionLog"] + products("NIOCore", "NIOEmbedded")
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "CNcurses", "DemoOrigin", "TestFixtures"] + products("Logging")
        ),
        .testTarget(
            name: "CacheMetricsTests",
            dependencies: ["CacheMetrics", "CacheScopeApp", "CachingClient", "CacheEvents", "CacheStore", "HTTPCaching", "DemoOrigin"]
                + products("CoreMetrics", "Prometheus", "AsyncHTTPClient", "HTTPTypes", "NIOCore", "NIOHTTP1")
        ),
        .testTarget(
            name: "SharedTierTests",
            dependencies: ["SharedTier", "CachingClient", "CacheStore", "CacheEvents", "HTTPCaching", "DemoOrigin"]
                + products("PostgresNIO", "NIOCore", "NIOPosix", "Logging", "HTTPTypes")
        ),
        .testTarget(name: "HTTPCachingTests", dependencies: ["HTTPCaching"] + products("PropertyBased")),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
