import TerminalUI

/// A series of values drawn as one line of glyphs (``Grid/sparkGlyph(fraction:style:)``), its
/// peak marked: the peak's column in `warning`, bold. Values are `nil` where there is nothing to
/// show (a hit ratio without requests), drawn as a space.
struct Sparkline {
    /// The values, oldest first, one a column.
    var values: [Double?]
    /// The value a full column stands for; `nil`: the largest value (relative scale).
    var scale: Double?

    /// The largest value and its column (the latest, when several share it).
    var peak: (value: Double, column: Int)? {
        var best: (value: Double, column: Int)?
        for (column, value) in values.enumerated() {
            guard let value, value > 0 else { continue }
            if value >= best?.value ?? 0 { best = (value, column) }
        }
        return best
    }

    /// The glyphs as spans: runs in `role`, the peak apart.
    func spans(style: Grid.BarStyle, role: ThemeRole = .gauge) -> [Span] {
        let peak = self.peak
        let full = scale ?? peak?.value ?? 1
        var spans: [Span] = []
        var run = ""
        for (column, value) in values.enumerated() {
            // A defined value is never blank, so 0 % reads differently from "no requests".
            let fraction = value.map { full > 0 ? max($0 / full, 0.001) : 0.001 } ?? 0
            let glyph = Grid.sparkGlyph(fraction: fraction, style: style)
            if column == peak?.column {
                if !run.isEmpty { spans.append(Span(run, role)) }
                run = ""
                spans.append(Span(String(glyph), .warning, attributes: .bold))
            } else {
                run.append(glyph)
            }
        }
        if !run.isEmpty { spans.append(Span(run, role)) }
        return spans
    }
}

extension Array where Element == TimelineBucket {
    /// The buckets merged `perColumn` at a time, so at most `columns` remain; `perColumn`; and
    /// how many buckets each merged one holds (the newest may hold fewer: its rate is over those).
    ///
    /// `firstIndex` is the first bucket's place on the timeline (its second, for the last
    /// minute): the groups start at multiples of `perColumn` there, not at the window's oldest
    /// bucket, so that as the window slides a second at a time a bucket stays in its group and
    /// the past does not change shape. The oldest group, which the window cuts, is left out
    /// (a part of a group would show a rate or ratio of fewer seconds); the newest is the one
    /// still filling.
    func merged(toAtMost columns: Int, firstIndex: Int = 0) -> (buckets: [TimelineBucket], perColumn: Int, sizes: [Int]) {
        guard columns > 0, count > columns else { return (self, 1, [Int](repeating: 1, count: count)) }
        let perColumn = (count + columns - 1) / columns
        let lead = ((firstIndex % perColumn) + perColumn) % perColumn
        var index = lead == 0 ? 0 : perColumn - lead
        var result: [TimelineBucket] = []
        var sizes: [Int] = []
        result.reserveCapacity(columns)
        while index < count {
            let end = Swift.min(count, index + perColumn)
            result.append(self[index..<end].reduce(TimelineBucket(), +))
            sizes.append(end - index)
            index = end
        }
        return (result, perColumn, sizes)
    }
}
