// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours is built with: Swift 6 language mode comes from the tools
/// version; `ExistentialAny` keeps `any` visible where a protocol is used as a type.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "CacheScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "CacheEvents", targets: ["CacheEvents"]),
        .executable(name: "cachescope", targets: ["cachescope"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // MARK: Rules
        .target(
            name: "HTTPCaching",
            dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        // MARK: Events
        .target(name: "CacheEvents", dependencies: ["HTTPCaching"]),

        // MARK: The executable
        .executableTarget(
            name: "cachescope",
            dependencies: [
                "HTTPCaching",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
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
