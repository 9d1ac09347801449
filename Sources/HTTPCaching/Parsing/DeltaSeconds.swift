/// The value of a directive whose argument is `delta-seconds` (RFC 9111 §1.2.2), such as
/// `max-age`, `s-maxage`, `min-fresh`, `stale-while-revalidate` or `stale-if-error`.
public enum DeltaSeconds: Sendable, Hashable, CustomStringConvertible {
    /// The directive does not occur.
    case absent
    /// The directive occurs (once, or several times with the same value) with a valid value.
    case seconds(Int)
    /// The directive occurs with a value that is not a non-negative integer (or with none);
    /// RFC 9111 §4.2.1 treats such freshness information as making the response stale.
    case invalid(String)
    /// The directive occurs several times with different values; RFC 9111 §4.2.1 allows a
    /// cache to consider the response stale, which CacheScope does (the safe choice).
    case conflicting([String])

    /// Values greater than this are replaced by it (RFC 9111 §1.2.2: 2^31).
    public static let maximum = 2_147_483_648

    /// The seconds when valid, otherwise `nil`.
    public var value: Int? {
        if case .seconds(let value) = self { return value }
        return nil
    }

    /// Whether the directive occurs at all, valid or not.
    public var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .absent: return "absent"
        case .seconds(let value): return "\(value)"
        case .invalid(let raw): return "invalid value \"\(raw)\""
        case .conflicting(let values): return "conflicting values " + values.joined(separator: ", ")
        }
    }

    /// Parses `delta-seconds`: 1*DIGIT, saturating at ``maximum``.
    static func parse(_ raw: String?) -> DeltaSeconds {
        guard let raw, !raw.isEmpty else { return .invalid(raw ?? "") }
        var value = 0
        for byte in raw.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return .invalid(raw) }
            value = min(value * 10 + Int(byte - 0x30), maximum)
        }
        return .seconds(value)
    }

    /// Combines every occurrence of one directive per RFC 9111 §4.2.1.
    static func combine(_ occurrences: [String?]) -> DeltaSeconds {
        guard let first = occurrences.first else { return .absent }
        guard occurrences.count > 1 else { return parse(first) }
        let parsed = occurrences.map(parse)
        if Set(parsed).count > 1 {
            return .conflicting(occurrences.map { $0 ?? "" })
        }
        return parse(first)
    }
}
