/// Horizontal bars and gauges.
extension Grid {
    /// How bars are drawn.
    public enum BarStyle: Hashable, Sendable {
        /// Unicode blocks with eighth-column resolution: `█` for full cells and one of
        /// `▏▎▍▌▋▊▉` for the partial cell; empty cells are spaces.
        case blocks
        /// Plain ASCII for terminals without Unicode: `#` filled, `.` empty, whole cells only.
        case ascii
    }

    private static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar exactly `width` columns wide whose filled part is `fraction` of it.
    ///
    /// `fraction` is clamped to 0…1 (NaN counts as 0) and rounded to the nearest eighth of a
    /// cell (``BarStyle/blocks``) or whole cell (``BarStyle/ascii``).
    ///
    /// ```swift
    /// Grid.bar(fraction: 0.5, width: 8)                  // "████    "
    /// Grid.bar(fraction: 0.3, width: 5)                  // "█▌   "
    /// Grid.bar(fraction: 0.5, width: 8, style: .ascii)   // "####...."
    /// ```
    public static func bar(fraction: Double, width: Int, style: BarStyle = .blocks) -> String {
        let parts = barParts(fraction: fraction, width: width, style: style)
        return parts.filled + parts.empty
    }

    /// Draws a gauge: ``bar(fraction:width:style:)`` with its filled part in `role` and the
    /// rest in `emptyRole`, so themes can colour the track.
    public mutating func gauge(
        fraction: Double, x: Int, y: Int, width: Int, style: BarStyle = .blocks,
        role: ThemeRole = .gauge, emptyRole: ThemeRole = .gaugeEmpty
    ) {
        let parts = Self.barParts(fraction: fraction, width: width, style: style)
        let used = write(parts.filled, x: x, y: y, role: role, maxWidth: width)
        write(parts.empty, x: x + used, y: y, role: emptyRole, maxWidth: width - used)
    }

    /// ``bar(fraction:width:style:)`` in two parts: the filled part (full cells plus at most
    /// one partial cell) and the empty part, for drawing them in different roles.
    public static func barParts(fraction: Double, width: Int, style: BarStyle) -> (filled: String, empty: String) {
        let width = max(0, width)
        let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
        switch style {
        case .blocks:
            let units = Int((clamped * Double(width * 8)).rounded())
            let full = units / 8
            let partial = units % 8
            var filled = String(repeating: "█", count: full)
            if partial > 0 { filled.append(eighths[partial - 1]) }
            return (filled, String(repeating: " ", count: width - full - (partial > 0 ? 1 : 0)))
        case .ascii:
            let full = Int((clamped * Double(width)).rounded())
            return (String(repeating: "#", count: full), String(repeating: ".", count: width - full))
        }
    }
}
