// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours is built with: Swift 6 language mode comes from the tools
/// version; `ExistentialAny` keeps `any` visible where a protocol is used as a type;
/// `InternalImportsByDefault` and `MemberImportVisibility` make each file say what it imports,
/// and which of its imports its public API exposes (`public import`).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "CacheScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "CacheEvents", targets: ["CacheEvents"]),
        .library(name: "SessionLog", targets: ["SessionLog"]),
        .library(name: "CacheStore", targets: ["CacheStore"]),
        .library(name: "CachingClient", targets: ["CachingClient"]),
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
    ],
    targets: [
        // MARK: Rules
        .target(
            name: "HTTPCaching",
            dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        // MARK: Store
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]
        ),
        .target(
            name: "CacheStore",
            dependencies: [
                "HTTPCaching",
                "CSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "CacheStoreCrashHelper",
            dependencies: ["CacheStore", "HTTPCaching", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        // MARK: Events
        .target(
            name: "CacheEvents",
            dependencies: ["HTTPCaching", "CacheStore", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        // MARK: Session logs (format, reading, recording, replay, summary, HAR)
        .target(
            name: "SessionLog",
            dependencies: [
                "CacheEvents", "CacheStore", "HTTPCaching", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: The client
        .target(
            name: "CachingClient",
            dependencies: [
                "HTTPCaching",
                "CacheStore",
                "CacheEvents",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        // MARK: Attach
        .target(
            name: "CacheAttach",
            dependencies: [
                "CacheEvents",
                "SessionLog",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: Demo origin and workload
        .target(
            name: "DemoOrigin",
            dependencies: [
                "HTTPCaching",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
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
            dependencies: [
                "CNcurses",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Resources/themes")]
        ),

        // MARK: Dashboard
        .target(
            name: "Dashboard",
            dependencies: [
                "CacheEvents", "CacheStore", "SessionLog", "HTTPCaching", "TerminalUI", .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // MARK: The application layer: what the commands do, testable without the executable
        .target(
            name: "CacheScopeApp",
            dependencies: [
                "HTTPCaching",
                "CacheStore",
                "CacheEvents",
                "SessionLog",
                "CachingClient",
                "CacheAttach",
                "DemoOrigin",
                "TerminalUI",
                "Dashboard",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: The executable: argument parsing and wiring only
        .executableTarget(
            name: "cachescope",
            dependencies: [
                "CacheScopeApp", "HTTPCaching", "CacheEvents", "SessionLog", "CachingClient", "CacheAttach", "DemoOrigin",
                "TerminalUI", "Dashboard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "DemoOriginTests", dependencies: ["DemoOrigin"]),
        .testTarget(name: "CacheEventsTests", dependencies: ["CacheEvents", "CacheStore", "HTTPCaching"]),
        .testTarget(
            name: "SessionLogTests",
            dependencies: ["SessionLog", "CacheEvents", "CacheStore", "HTTPCaching", "DemoOrigin"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CacheScopeAppTests",
            dependencies: ["CacheScopeApp", "CachingClient", "SessionLog", "CacheEvents", "HTTPCaching", "DemoOrigin"]
        ),
        .testTarget(
            name: "CacheStoreTests",
            dependencies: [
                "CacheStore",
                "CacheStoreCrashHelper",
                "HTTPCaching",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "DashboardTests",
            dependencies: ["Dashboard", "CacheEvents", "CacheStore", "SessionLog", "HTTPCaching", "TerminalUI"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "DashboardEndToEndTests", dependencies: ["cachescope", "DemoOrigin"]),
        .testTarget(
            name: "CachingClientTests",
            dependencies: [
                "CachingClient", "CacheStore", "CacheEvents", "HTTPCaching", "DemoOrigin",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "CacheAttachTests",
            dependencies: [
                "CacheAttach",
                "CacheEvents",
                "CacheStore",
                "SessionLog",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "CNcurses", "DemoOrigin", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "HTTPCachingTests",
            dependencies: [
                "HTTPCaching",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
