import CacheEvents
import HTTPCaching
import Foundation
import SessionLog

/// The result of `cachescope replay FILE --what-if …`: the recorded run and the what-if run
/// side by side, and the URLs whose outcome changed most.
public struct WhatIfReport: Sendable {
    /// The file replayed, as named on the command line.
    public var file: String
    /// The changes simulated.
    public var changes: WhatIfChanges
    /// The run as recorded (for a HAR capture: simulated with the default configuration).
    public var recorded: WhatIfRun
    /// The run through the changed cache.
    public var whatIf: WhatIfRun
    /// Requests whose outcome differs between the two runs.
    public var changedRequests: Int
    /// Requests compared.
    public var comparedRequests: Int
    /// The URLs whose outcome changed most (at most ten).
    public var changedURLs: [ChangedURL]
    /// What the comparison could not take into account (commands not repeated, assumptions).
    public var notes: [String]

    /// The report as text for a terminal:
    ///
    /// ```text
    /// What-if for capture.jsonl: memory=1.0 MiB
    ///
    ///                          recorded      what-if       change
    ///   requests                  2,000        2,000
    ///   hit ratio                 71.3%        42.0%  -29.3 points
    ///   …
    /// URLs whose outcome changed most:
    ///   changed  of  URL
    ///        30  40  https://example.com/a  (hit → miss 28, revalidated → miss 2)
    /// ```
    public var text: String {
        var lines = ["What-if for \(file): \(changes)", ""]
        lines.append(Self.row("", "recorded", "what-if", "change"))
        let (before, after) = (recorded.counters, whatIf.counters)
        lines.append(Self.row("requests", count(before.requests), count(after.requests), delta(after.requests - before.requests)))
        lines.append(Self.row("hit ratio", ratio(before.hitRatio), ratio(after.hitRatio), points(before.hitRatio, after.hitRatio)))
        lines.append(Self.row(
            "byte hit ratio", ratio(before.byteHitRatio), ratio(after.byteHitRatio), points(before.byteHitRatio, after.byteHitRatio)))
        lines.append(Self.row(
            "origin requests", count(recorded.originRequests), count(whatIf.originRequests),
            delta(whatIf.originRequests - recorded.originRequests)))
        lines.append(Self.row(
            "bytes from origin", SessionSummary.bytes(before.bytesFromNetwork), SessionSummary.bytes(after.bytesFromNetwork),
            byteDelta(after.bytesFromNetwork - before.bytesFromNetwork)))
        for outcome in CacheOutcome.allCases {
            let (old, new) = (before.count(outcome), after.count(outcome))
            lines.append(Self.row("  " + outcome.rawValue, count(old), count(new), delta(new - old)))
        }
        let (oldEvictions, newEvictions) = (before.totalEvictions, after.totalEvictions)
        lines.append(Self.row("evictions", count(oldEvictions), count(newEvictions), delta(newEvictions - oldEvictions)))
        lines.append("")
        lines.append("Requests whose outcome changed: \(count(changedRequests)) of \(count(comparedRequests))")
        lines.append("URLs whose outcome changed most:")
        if changedURLs.isEmpty {
            lines.append("  (none)")
        } else {
            lines.append("   changed        of  URL")
            for url in changedURLs {
                let how = url.transitions.map { "\($0.from.rawValue) → \($0.to.rawValue) \(count($0.count))" }.joined(separator: ", ")
                lines.append(count(url.changed).leftPadded(to: 10) + count(url.requests).leftPadded(to: 10) + "  \(url.url)  (\(how))")
            }
        }
        for note in notes { lines.append("Note: \(note)") }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Formatting

    private static func row(_ label: String, _ recorded: String, _ whatIf: String, _ change: String) -> String {
        let line = "  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + recorded.leftPadded(to: 12)
            + whatIf.leftPadded(to: 13) + change.leftPadded(to: 15)
        return String(line.reversed().drop(while: { $0 == " " }).reversed())
    }

    private func count(_ value: Int) -> String { SessionSummary.grouped(value) }

    private func delta(_ value: Int) -> String { value == 0 ? "" : (value > 0 ? "+" : "") + SessionSummary.grouped(value) }

    private func byteDelta(_ value: Int) -> String {
        value == 0 ? "" : (value > 0 ? "+" : "-") + SessionSummary.bytes(abs(value))
    }

    private func ratio(_ value: Double?) -> String { value.map(SessionSummary.percent) ?? "n/a" }

    private func points(_ before: Double?, _ after: Double?) -> String {
        guard let before, let after else { return "" }
        let difference = (after - before) * 100
        guard abs(difference) >= 0.05 else { return "" }
        return (difference > 0 ? "+" : "") + String(format: "%.1f points", difference)
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
