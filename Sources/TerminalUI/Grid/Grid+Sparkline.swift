/// Sparklines: one glyph a value, its height one of eight levels.
extension Grid {
    private static let blockLevels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    private static let asciiLevels: [Character] = ["_", ".", "-", ":", "=", "+", "*", "#"]

    /// The glyph of one sparkline column whose value is `fraction` of the line's peak.
    ///
    /// `fraction` is clamped to 0…1; 0 and NaN (no value) are a space, anything above 0 is at
    /// least the lowest level, so a small value is never mistaken for none. ``BarStyle/blocks``
    /// draws `▁▂▃▄▅▆▇█`, ``BarStyle/ascii`` draws `_.-:=+*#`.
    ///
    /// ```swift
    /// Grid.sparkGlyph(fraction: 1)                   // "█"
    /// Grid.sparkGlyph(fraction: 0.01)                // "▁"
    /// Grid.sparkGlyph(fraction: 0.5, style: .ascii)  // ":"
    /// ```
    public static func sparkGlyph(fraction: Double, style: BarStyle = .blocks) -> Character {
        guard fraction > 0 else { return " " }
        let levels = style == .blocks ? blockLevels : asciiLevels
        let level = Int((min(1, fraction) * Double(levels.count)).rounded(.up)) - 1
        return levels[max(0, min(levels.count - 1, level))]
    }
}
