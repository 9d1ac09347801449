/// The unit suffixes of the quantities people type — in filters (`ttl<5m`, `size>1MB`) and on
/// the command line (`--memory-capacity 64M`, `--what-if min-ttl=5m`): one table for
/// durations and one for sizes, so every place accepts the same spellings.
///
/// ```swift
/// UnitTable.sizes.factor(of: "MiB")       // 1048576
/// UnitTable.durations.factor(of: "h")     // 3600
/// UnitTable.sizes.factor(of: "furlong")   // nil
/// ```
public struct UnitTable: Sendable {
    /// The factor of each suffix (lowercase), in the order they are tried.
    public let factors: [(String, Double)]
    /// The suffixes as an error message lists them: `s m h d`.
    public let listed: String

    /// The factor of `suffix`, compared ignoring case; `nil` for a suffix not in the table.
    public func factor(of suffix: some StringProtocol) -> Double? {
        let lowered = suffix.lowercased()
        return factors.first { $0.0 == lowered }?.1
    }

    /// Seconds per duration unit: `s`, `m`, `h`, `d` (a bare number is seconds).
    public static let durations = UnitTable(factors: [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)], listed: "s m h d")

    /// Bytes per size unit, 1024-based as the dashboard shows sizes, in each spelling the
    /// dashboard or a user writes: `B`; `K`, `KB`, `KiB`; the same for `M`, `G` and `T` (a bare
    /// number is bytes).
    public static let sizes = UnitTable(
        factors: [("b", 1)] + [("k", 1), ("m", 2), ("g", 3), ("t", 4)].flatMap { prefix, power in
            let size = (0..<power).reduce(1.0) { product, _ in product * 1024 }
            return [(prefix, size), (prefix + "b", size), (prefix + "ib", size)]
        },
        listed: "B KB MB GB TB")

    /// No units at all.
    static let unitless = UnitTable(factors: [], listed: "")
}
