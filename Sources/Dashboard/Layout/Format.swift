import Foundation
import SessionLog

/// How numbers, sizes and times are written on screen: short, unit-bearing and independent of
/// the locale, so snapshots are the same everywhere.
enum Format {
    /// `1234567` → `1,234,567`.
    static func count(_ value: Int) -> String { SessionSummary.grouped(value) }

    /// A ratio as a percentage with one decimal (`64.2%`), or `–` when undefined.
    static func percent(_ ratio: Double?) -> String {
        guard let ratio, ratio.isFinite else { return "–" }
        return fixed(ratio * 100, decimals: 1) + "%"
    }

    /// Bytes in binary units with one decimal: `812 B`, `1.2 KiB`, `3.4 MiB`, `1.0 GiB`.
    static func bytes(_ value: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        let (amount, unit) = binaryScaled(value, units: units)
        return unit == 0 ? "\(value) B" : fixed(amount, decimals: 1) + " " + units[unit]
    }

    /// Bytes for a narrow column: `812`, `1.2K`, `34M`, `1.0G`.
    static func shortBytes(_ value: Int) -> String {
        let units = ["", "K", "M", "G", "T"]
        let (amount, unit) = binaryScaled(value, units: units)
        if unit == 0 { return "\(value)" }
        return fixed(amount, decimals: amount < 10 ? 1 : 0) + units[unit]
    }

    /// `value` divided by 1024 until it is below 1024 in magnitude or `units` has no larger
    /// unit, and the index in `units` of the unit reached.
    private static func binaryScaled(_ value: Int, units: [String]) -> (amount: Double, unit: Int) {
        var amount = Double(value)
        var unit = 0
        while abs(amount) >= 1024, unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        return (amount, unit)
    }

    /// A latency: `0.42ms`, `12ms`, `1.2s`, `95s`.
    static func latency(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "–" }
        if seconds < 0.001 { return fixed(seconds * 1000, decimals: 2) + "ms" }
        if seconds < 0.01 { return fixed(seconds * 1000, decimals: 1) + "ms" }
        if seconds < 1 { return fixed(seconds * 1000, decimals: 0) + "ms" }
        if seconds < 10 { return fixed(seconds, decimals: 1) + "s" }
        return fixed(seconds, decimals: 0) + "s"
    }

    /// A duration in whole seconds, two units at most: `42s`, `3m12s`, `2h5m`, `1d3h`;
    /// negative values get a minus sign.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let whole = wholeSeconds(seconds.rounded(seconds < 0 ? .up : .down))
        if whole < 0 { return "-" + duration(Double(-whole)) }
        if whole < 60 { return "\(whole)s" }
        let units: [(Int, String)] = [(86_400, "d"), (3600, "h"), (60, "m"), (1, "s")]
        var rest = whole
        var parts: [String] = []
        for (size, name) in units where rest >= size && parts.count < 2 {
            parts.append("\(rest / size)\(name)")
            rest %= size
        }
        return parts.joined()
    }

    /// How long ago an expired TTL (`ttl` ≤ 0) ran out, as the TTL rounded down shows it:
    /// `1s` for the first second past it (0.3 s stale), `46s` for 45.99 s — never `0s`.
    static func staleness(_ ttl: Double) -> String {
        duration(max(1, (-ttl).rounded(.up)))
    }

    /// A session clock: `0:07`, `12:34`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let whole = max(0, wholeSeconds(seconds.rounded(.down)))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? "\(hours):" + twoDigits(minutes) + ":" + twoDigits(secs)
            : "\(minutes):" + twoDigits(secs)
    }

    /// `seconds` (already whole) as an `Int`, held within a million years either way: a
    /// duration read from a log can be any number, and converting one beyond `Int` traps.
    private static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, -3.2e13), 3.2e13))
    }

    /// A session time with tenths, for request rows: `0:07.3`, `12:34.0`, `1:02:03`.
    static func eventTime(_ seconds: Double) -> String {
        let clamped = max(0, seconds)
        if clamped >= 3600 { return clock(clamped) }
        let tenths = Int((clamped * 10).rounded(.down))
        return "\(tenths / 600):" + twoDigits(tenths / 10 % 60) + ".\(tenths % 10)"
    }

    /// A rate with one decimal: `12.3/s`.
    static func rate(_ value: Double) -> String {
        fixed(value, decimals: 1) + "/s"
    }

    // MARK: Digits

    /// `value` with `decimals` (0–3) digits after the point, as `String(format: "%.Nf")`
    /// writes it, without Foundation's formatter: that costs microseconds a call, and a frame
    /// of the Requests view formats hundreds of values. A value whose scaled form lands on a
    /// half (where the two roundings could differ) and any value out of the fast range are
    /// left to the formatter.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard (0...3).contains(decimals) else { return String(format: "%.\(decimals)f", value) }
        let scale = [1.0, 10, 100, 1000][decimals]
        let scaled = value.magnitude * scale
        let rounded = scaled.rounded(.toNearestOrEven)
        guard value.isFinite, scaled < 1e15, (rounded - scaled).magnitude != 0.5 else {
            return String(format: "%.\(decimals)f", value)
        }
        let units = Int(rounded)
        let whole = units / Int(scale)
        var text = value.sign == .minus ? "-\(whole)" : "\(whole)"
        guard decimals > 0 else { return text }
        let fraction = String(units % Int(scale))
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        return text
    }

    /// `7` → `07`, `42` → `42`.
    static func twoDigits(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : "\(value)" }
}
