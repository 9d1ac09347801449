import CacheStore
public import CachingClient
public import HTTPCaching
import SessionLog
import TrafficFilter

/// How the what-if cache differs from the recorded one: the `KEY=VALUE` arguments of
/// `cachescope replay FILE --what-if …`, parsed. A key not given keeps the recording's value.
///
/// ```swift
/// let changes = try WhatIfChanges(parsing: ["memory=1M", "min-ttl=5m"])
/// changes.apply(to: &configuration)
/// ```
public struct WhatIfChanges: Sendable, Hashable, CustomStringConvertible {
    /// `memory=SIZE`: the memory tier's capacity in bytes.
    public var memoryCapacity: Int?
    /// `disk=SIZE`: the disk tier's capacity in bytes (0: no disk tier).
    public var diskCapacity: Int?
    /// `mode=private|shared`.
    public var mode: CacheMode?
    /// `policy=NAME`: one policy for every request instead of each request's recorded one.
    public var policy: CachePolicy?
    /// `ignore-no-cache=yes|no`: whether responses' `no-cache` is ignored.
    public var ignoresResponseNoCache: Bool?
    /// `min-ttl=DURATION`: a floor under every freshness lifetime.
    public var minimumFreshness: Duration?

    /// The keys, in the order the help lists them, with what each takes.
    public static let keys: [(key: String, value: String)] = [
        ("memory", "SIZE"), ("disk", "SIZE"), ("mode", "private|shared"), ("policy", "NAME"),
        ("ignore-no-cache", "yes|no"), ("min-ttl", "DURATION"),
    ]

    /// `memory=SIZE, disk=SIZE, …`: the accepted keys, for messages and help.
    public static var keyList: String { keys.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }

    /// No change: the recorded configuration.
    public init() {}

    /// Parses `KEY=VALUE` arguments.
    /// - Throws: ``WhatIfError`` naming the argument, the key or the value, and what is accepted.
    public init(parsing assignments: [String]) throws(WhatIfError) {
        var seen: Set<String> = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { throw .notAnAssignment(assignment) }
            let key = String(assignment[..<equals]).lowercased()
            let value = String(assignment[assignment.index(after: equals)...])
            guard Self.keys.contains(where: { $0.key == key }) else { throw .unknownKey(key) }
            guard seen.insert(key).inserted else { throw .repeatedKey(key) }
            try set(key, value)
        }
    }

    private mutating func set(_ key: String, _ value: String) throws(WhatIfError) {
        switch key {
        case "memory":
            memoryCapacity = try Self.size(key, value, allowingZero: false)
        case "disk":
            diskCapacity = try Self.size(key, value, allowingZero: true)
        case "mode":
            guard let parsed = CacheMode(rawValue: value.lowercased()) else {
                throw .badValue(key: key, value: value, expected: "private or shared")
            }
            mode = parsed
        case "policy":
            guard let parsed = CachePolicy(name: value) else {
                let names = CachePolicy.allCases.map(\.commandLineName).joined(separator: ", ")
                throw .badValue(key: key, value: value, expected: "one of \(names)")
            }
            policy = parsed
        case "ignore-no-cache":
            switch value.lowercased() {
            case "yes", "true", "on", "1": ignoresResponseNoCache = true
            case "no", "false", "off", "0": ignoresResponseNoCache = false
            default: throw .badValue(key: key, value: value, expected: "yes or no")
            }
        default:  // "min-ttl", the only key left
            // At most 100 years: longer is "forever" already, and would overflow the rules' arithmetic.
            guard let seconds = Self.seconds(value), seconds <= 100 * 365 * 86_400 else {
                throw .badValue(key: key, value: value, expected: "a duration such as 90, 30s, 5m, 2h or 1d, at most 100 years")
            }
            minimumFreshness = .seconds(seconds)
        }
    }

    /// Applies the changes to a client configuration.
    public func apply(to configuration: inout CachingClientConfiguration) {
        if let memoryCapacity { configuration.store.memoryCapacity = memoryCapacity }
        if let diskCapacity { configuration.store.diskCapacity = diskCapacity }
        if let mode { configuration.mode = mode }
        if let policy { configuration.defaultPolicy = policy }
        if let ignoresResponseNoCache { configuration.ignoresResponseNoCache = ignoresResponseNoCache }
        if let minimumFreshness { configuration.minimumFreshness = minimumFreshness }
    }

    /// `memory=1 MiB, min-ttl=300s`, or `no change`.
    public var description: String {
        var parts: [String] = []
        if let memoryCapacity { parts.append("memory=\(SessionSummary.bytes(memoryCapacity))") }
        if let diskCapacity { parts.append("disk=\(SessionSummary.bytes(diskCapacity))") }
        if let mode { parts.append("mode=\(mode.rawValue)") }
        if let policy { parts.append("policy=\(policy.commandLineName)") }
        if let ignoresResponseNoCache { parts.append("ignore-no-cache=\(ignoresResponseNoCache ? "yes" : "no")") }
        if let minimumFreshness { parts.append("min-ttl=\(Int(minimumFreshness.inSeconds))s") }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }

    // MARK: Values

    private static func size(_ key: String, _ value: String, allowingZero: Bool) throws(WhatIfError) -> Int {
        if allowingZero, value == "0" { return 0 }
        do {
            return try ByteCount(parsing: value, option: key).bytes
        } catch {
            let sizes = "a size such as 1048576, 512K, 64M or 2G" + (allowingZero ? ", or 0 for none" : "")
            throw .badValue(key: key, value: value, expected: sizes)
        }
    }

    /// `90`, `30s`, `5m`, `2h`, `1d` → seconds: a whole number and at most one suffix of
    /// ``UnitTable/durations`` (the filter's duration units).
    private static func seconds(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = 1
        if let last = digits.last, !last.isNumber {
            guard let factor = UnitTable.durations.factor(of: String(last)) else { return nil }
            unit = Int(factor)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let value = Int(digits),
            case (let seconds, false) = value.multipliedReportingOverflow(by: unit)
        else { return nil }
        return seconds
    }
}
