import Foundation
import HTTPCaching
import TerminalUI

/// The Stats view's latency histogram, as varnishhist draws it: latency on a logarithmic x
/// axis (whole decades, from the fastest request's to the slowest's), request counts up the y
/// axis, and each column a stack of outcome glyphs (`✓` hits at the bottom, then `~ ↻ ± ✗ ⇢ !`)
/// in their roles, so the outcomes' shapes show even without colour. Then p50 / p95 / p99 and
/// the maximum per outcome.
enum LatencyChart {
    /// Columns left of the plot: the count labels and the axis.
    static let axisWidth = 8

    /// The chart: `rows` rows of bars, the axis and its decade labels, and a legend.
    static func lines(_ model: TrafficModel, width: Int, rows: Int) -> [[Span]] {
        guard let minimum = model.latency.minimum, let maximum = model.latency.maximum else {
            return [[Span("  no finished requests yet", .dim)]]
        }
        let firstDecade = min(1, decade(of: minimum))
        let lastDecade = max(firstDecade + 1, min(2, decade(of: maximum) + 1))
        let decades = lastDecade - firstDecade
        let plotWidth = max(1, width - axisWidth - 1)
        // Columns per decade: the most that fit, and a divisor of the histogram's 20 buckets.
        let perDecade = [20, 10, 5, 4, 2, 1].first { $0 * decades <= plotWidth } ?? 1
        let bucketsPerColumn = Int(LatencyHistogram.bucketsPerDecade) / perDecade
        let firstBucket = (firstDecade + 5) * Int(LatencyHistogram.bucketsPerDecade)
        let columnCount = min(plotWidth, decades * perDecade)
        // Per column, the count of each outcome (in CacheOutcome order).
        let counts: [[Int]] = (0..<columnCount).map { column in
            let buckets = (firstBucket + column * bucketsPerColumn)..<(firstBucket + (column + 1) * bucketsPerColumn)
            return CacheOutcome.allCases.map { outcome in
                let histogram = model.latencyByOutcome[outcome]
                return buckets.reduce(0) { $0 + (0..<LatencyHistogram.bucketCount ~= $1 ? histogram.count(inBucket: $1) : 0) }
            }
        }
        let tallest = counts.map { $0.reduce(0, +) }.max() ?? 0
        var lines = bars(counts, tallest: tallest, rows: rows)
        lines.append([Span(pad("0", to: axisWidth - 1) + "└" + String(repeating: "─", count: columnCount), .border)])
        lines.append(axisLabels(firstDecade: firstDecade, decades: decades, perDecade: perDecade))
        var legend: [Span] = [Span(String(repeating: " ", count: axisWidth))]
        for outcome in CacheOutcome.allCases {
            legend += [Span(OutcomeStyle.glyph(outcome) + " " + outcome.rawValue, OutcomeStyle.role(outcome)), Span("  ")]
        }
        lines += TextViews.wrap(legend, width: width, indent: axisWidth)
        return lines
    }

    /// The bar rows, top first: a column `total / tallest` of `rows` high, split between the
    /// outcomes by their share (a column with any request is at least one row).
    private static func bars(_ counts: [[Int]], tallest: Int, rows: Int) -> [[Span]] {
        let outcomes = CacheOutcome.allCases
        // cells[row][column], row 0 at the bottom: the outcome drawn there.
        var cells = [[CacheOutcome?]](repeating: [CacheOutcome?](repeating: nil, count: counts.count), count: rows)
        for (column, perOutcome) in counts.enumerated() {
            let total = perOutcome.reduce(0, +)
            guard total > 0, tallest > 0 else { continue }
            let height = max(1, Int((Double(total) / Double(tallest) * Double(rows)).rounded()))
            var below = 0
            var cumulative = 0
            for (index, count) in perOutcome.enumerated() where count > 0 {
                cumulative += count
                let top = max(below + 1, Int((Double(cumulative) / Double(total) * Double(height)).rounded()))
                for row in below..<min(top, rows) { cells[row][column] = outcomes[index] }
                below = min(top, rows)
            }
        }
        return (0..<rows).reversed().map { row in
            let label = row == rows - 1 ? Format.count(tallest) : ""
            var spans = [Span(pad(label, to: axisWidth - 1) + (row == rows - 1 ? "┤" : "│"), .border)]
            for outcome in cells[row] {
                let text = outcome.map(OutcomeStyle.glyph) ?? " "
                let role = outcome.map(OutcomeStyle.role) ?? .text
                if let last = spans.last, spans.count > 1, last.role == role {
                    spans[spans.count - 1].text += text
                } else {
                    spans.append(Span(text, role))
                }
            }
            return spans
        }
    }

    /// `10µs 100µs 1ms …` under the first column of each decade, where they fit.
    private static func axisLabels(firstDecade: Int, decades: Int, perDecade: Int) -> [Span] {
        var text = String(repeating: " ", count: axisWidth)
        for index in 0...decades {
            let label = decadeName(firstDecade + index)
            let column = axisWidth + index * perDecade
            guard column >= text.count + (text.count > axisWidth ? 1 : 0) else { continue }
            text += String(repeating: " ", count: column - text.count) + label
        }
        return [Span(text, .dim)]
    }

    /// The p50 / p95 / p99 / max table, one row per outcome that has requests.
    static func percentileLines(_ model: TrafficModel, width: Int) -> [[Span]] {
        let header = "  " + pad("outcome", to: 16, left: false) + ["requests", "p50", "p95", "p99", "max"].map { pad($0, to: 10) }.joined()
        var lines: [[Span]] = [[Span(header, .header)]]
        for outcome in CacheOutcome.allCases {
            let histogram = model.latencyByOutcome[outcome]
            guard histogram.count > 0 else { continue }
            let figures = [Format.count(histogram.count), Format.latency(histogram.percentile(0.5)),
                           Format.latency(histogram.percentile(0.95)), Format.latency(histogram.percentile(0.99)),
                           Format.latency(histogram.maximum)]
            lines.append([Span("  " + pad(OutcomeStyle.glyph(outcome) + " " + outcome.rawValue, to: 16, left: false), OutcomeStyle.role(outcome)),
                          Span(figures.map { pad($0, to: 10) }.joined())])
        }
        if lines.count == 1 { lines.append([Span("  no finished requests yet", .dim)]) }
        return lines
    }

    // MARK: Helpers

    /// The decade (power of ten) at or below `seconds`, from −5 (10 µs) up.
    private static func decade(of seconds: Double) -> Int {
        seconds > 1e-5 ? max(-5, Int(log10(seconds).rounded(.down))) : -5
    }

    private static func decadeName(_ decade: Int) -> String {
        switch decade {
        case ...(-5): "10µs"
        case -4: "100µs"
        case -3: "1ms"
        case -2: "10ms"
        case -1: "100ms"
        case 0: "1s"
        case 1: "10s"
        default: "100s"
        }
    }

    private static func pad(_ text: String, to width: Int, left: Bool = true) -> String {
        let fill = String(repeating: " ", count: max(0, width - TextWidth.of(text)))
        return left ? fill + text : text + fill
    }
}
