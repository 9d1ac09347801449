import CacheEvents
import HTTPCaching
import TerminalUI

/// The Stats view's first section when several instances are attached: one line per instance
/// — name, pid, state (`connected` or `gone`), requests, request hit ratio, entries and bytes
/// stored — and the total, with the same definitions as the header (`TrafficCounters`; entries
/// and bytes from the entries the dashboard holds for each instance).
///
/// A gone instance's line shows its last known figures. Its requests happened and stay in the
/// total; its entries and bytes are not the store it has now, so the total leaves them out, as
/// the header's store figures do (``InstanceFigures/total(_:)``); which instances are left out
/// is the model's word (``TrafficModel/countsInTotal(_:roster:)``), as is the header's `(N gone)`.
enum InstanceBreakdown {
    /// Figures of one line.
    struct Line: Sendable, Hashable {
        var name: String
        var pid: String
        var state: String
        var requests: Int
        var hitRatio: Double?
        var entries: Int
        var bytes: Int
    }

    /// A line per instance of `roster`, then the total.
    static func figures(_ model: TrafficModel, roster: InstanceRoster) -> [Line] {
        var entries = Array(repeating: 0, count: roster.instances.count)
        var bytes = entries
        model.entries.forEach { entry in
            let index = Int(entry.instance)
            guard index < entries.count else { return }
            entries[index] += 1
            bytes[index].addSaturating(entry.size)
        }
        var lines: [Line] = []
        for (index, instance) in roster.instances.enumerated() {
            // Before a second instance's first event, everything so far is the first one's.
            let counters = index < model.perInstance.count
                ? model.perInstance[index].counters : (index == 0 && model.perInstance.isEmpty ? model.counters : TrafficCounters())
            lines.append(Line(
                // pid 0: never reached yet (no hello).
                name: instance.name, pid: instance.pid == 0 ? "–" : String(instance.pid),
                state: instance.connected ? "connected" : instance.pid == 0 ? "not yet" : "gone",
                requests: counters.requests, hitRatio: counters.hitRatio, entries: entries[index], bytes: bytes[index]))
        }
        let counted = { (index: Int) in model.countsInTotal(index, roster: roster) }
        lines.append(Line(
            name: "total", pid: "", state: "\(roster.connectedCount) of \(roster.instances.count)",
            requests: model.counters.requests, hitRatio: model.counters.hitRatio,
            entries: entries.indices.reduce(0) { $0 + (counted($1) ? entries[$1] : 0) },
            bytes: bytes.indices.reduce(0) { $0.addingSaturating(counted($1) ? bytes[$1] : 0) }))
        return lines
    }

    /// The section's lines (none with one instance).
    static func lines(_ model: TrafficModel, roster: InstanceRoster, width: Int) -> [[Span]] {
        guard roster.isFleet else { return [] }
        let nameWidth = min(InstanceColumn.maximumWidth, max(8, roster.instances.map { TextWidth.of($0.name) }.max() ?? 0))
        // Names and states are left-aligned, figures right-aligned.
        func cell(_ text: String, _ width: Int, left: Bool = false) -> String { TextWidth.pad(text, to: width, left: !left) }
        var result: [[Span]] = [TextViews.heading("Instances (\(roster.connectedCount) of \(roster.instances.count) connected)")]
        result.append([Span(
            "  " + cell("INSTANCE", nameWidth, left: true) + " " + cell("PID", 8) + "  " + cell("STATE", 10, left: true)
                + cell("REQUESTS", 9) + cell("HIT", 8) + cell("ENTRIES", 9) + cell("BYTES", 11), .header)])
        for line in figures(model, roster: roster) {
            let total = line.name == "total" && line.pid.isEmpty
            let escaped = Escaped.text(line.name)
            let name = TextWidth.truncated(escaped, to: nameWidth)
            var spans = [Span("  " + cell(name, nameWidth, left: true) + " " + cell(line.pid, 8) + "  ", total ? .title : .text)]
            spans.append(Span(cell(line.state, 10, left: true), line.state == "gone" ? .error : total ? .title : .hit))
            spans.append(Span(
                cell(Format.count(line.requests), 9) + cell(Format.percent(line.hitRatio), 8) + cell(Format.count(line.entries), 9)
                    + cell(Format.bytes(line.bytes), 11), total ? .title : .text, attributes: total ? .bold : []))
            result.append(spans)
        }
        // The same count as the header's `(N gone)`.
        if model.goneCount(roster: roster) > 0 {
            result.append([Span("  gone: last known figures; the total counts their requests, not their entries or bytes", .dim)])
        }
        result.append([])
        return result
    }
}
