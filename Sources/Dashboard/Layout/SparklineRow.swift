import Foundation
import TerminalUI

/// The row under the header: requests per second and the request hit ratio over the last
/// 60 s of session time (a replay: the whole session up to the playhead), each as a
/// ``Sparkline`` with its peak marked and named.
///
/// ```text
/// req/s ▁▂▂▃▅▇█▆▄▃▂▂▁  peak 12.0/s   hit ▆▆▇▇▅▅▆▇██▇▆▆  peak 100.0%   last 60 s
/// ```
enum SparklineRow {
    /// The widest a sparkline gets: 120 columns.
    static let maximumColumns = 120

    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, now: Double, style: Grid.BarStyle) {
        guard let row = geometry.sparklineRow else { return }
        let width = geometry.size.columns
        grid.write(spans(state.shown, isReplay: state.interface.mode.isReplay, width: width, now: now, style: style),
                   x: 0, y: row, maxWidth: width)
    }

    static func spans(_ model: TrafficModel, isReplay: Bool, width: Int, now: Double, style: Grid.BarStyle) -> [Span] {
        let timeline = model.timeline
        let buckets = isReplay ? timeline.wholeSession(endingAt: now) : timeline.lastMinute(endingAt: now)
        let bucketSeconds = isReplay ? timeline.bucketWidth : 1
        let caption = isReplay ? "whole session" : "last \(TrafficTimeline.recentSeconds) s"
        // Labels, peak figures (at their widest) and gaps take a fixed width; the two lines
        // share the rest.
        let fixed = "req/s ".count + " peak 9999.9/s".count + 3 + "hit ".count + " peak 100.0%".count + 3 + caption.count
        let columns = min(maximumColumns, max(4, (width - fixed) / 2), max(1, buckets.count))
        // The last minute's buckets are whole seconds: grouped on fixed seconds, so they stay put.
        let firstIndex = isReplay ? 0 : Int(now.rounded(.down)) - TrafficTimeline.recentSeconds + 1
        let (merged, _, sizes) = buckets.merged(toAtMost: columns, firstIndex: firstIndex)
        // Each column's rate over the seconds it holds (the newest may hold fewer: no sawtooth).
        let rates = Sparkline(
            values: zip(merged, sizes).map { bucket, size in
                bucket.requests > 0 ? Double(bucket.requests) / (bucketSeconds * Double(size)) : nil
            }, scale: nil)
        let ratios = Sparkline(values: merged.map(\.hitRatio), scale: 1)
        var spans = [Span("req/s ", .dim)] + rates.spans(style: style)
        spans += [Span(" peak ", .dim), Span(rates.peak.map { String(format: "%.1f/s", $0.value) } ?? "–"), Span("   ")]
        spans += [Span("hit ", .dim)] + ratios.spans(style: style)
        spans += [Span(" peak ", .dim), Span(Format.percent(ratios.peak?.value)), Span("   "), Span(caption, .dim)]
        return spans
    }
}
