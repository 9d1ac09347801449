import BenchmarkSupport
import CacheEvents
import Dashboard
import TerminalUI
import TrafficFilter

/// Issue #15's filter targets on the Requests view at 200×60 with 10,000 requests kept:
/// filtering the 10,000 rows ≤ 5 ms per frame — the first frame after the filter changes,
/// which matches every kept request, and the frames after it, which reuse the remembered
/// verdicts — and a frame with a filter and the sparkline row ≤ 2 ms.
enum FilterBenchmarks {
    /// Representative filters: an outcome, a URL regex, a size, a header, a plain URL
    /// substring, and a regex behind an `|`.
    static let expressions: [(name: String, text: String)] = [
        ("outcome", "outcome:miss"),
        ("url regex", #"url~"item.[0-9]+9""#),
        ("size", "size>1KB"),
        ("header", "h:content-type~json"),
        ("substring", "items/4"),
        ("outcome or regex", #"outcome:miss | url~"item.[0-9]+9""#),
    ]

    static func frames() throws -> Bool {
        var traffic = SyntheticTraffic(seed: 3)
        var state = DashboardState()
        for event in traffic.events(300_000) { state.apply(event) }
        let size = TerminalSize(columns: 200, rows: 60)
        state.interface.screen = size
        let theme = try ThemeLoader.builtIn(named: "default")
        let now = state.traffic.clock
        print("  state: \(state.traffic.requests.count) requests kept")
        var pass = true
        var cells = 0
        for (name, text) in expressions {
            // Two spellings of one filter: a filter whose text differs starts the dashboard's
            // remembered verdicts over, so alternating them makes every sample a first frame.
            // Each sample parses its filter as typing it does, so a regex starts with no
            // remembered verdicts of its own either.
            let spellings = [text, "(\(text))"]
            var turn = 0
            let first = try measure("first frame after a filter change, \(name) (\(text))", samples: 40, warmup: 4) {
                state.interface.filter = try Filter(spellings[turn % 2])
                turn += 1
                cells &+= DashboardLayout.render(state, size: size, theme: theme, now: now).width
            }
            pass = check(first, atMost: 0.005) && pass
            state.interface.filter = try Filter(text)
            let steady = measure("steady frame with the filter and sparklines, \(name)", samples: 200, warmup: 20) {
                cells &+= DashboardLayout.render(state, size: size, theme: theme, now: now).width
            }
            pass = check(steady, atMost: 0.002) && pass
        }
        // The frames above must have drawn the sparkline row (row 4 of a 200×60 frame).
        let grid = DashboardLayout.render(state, size: size, theme: theme, now: now)
        let sparklines = grid.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).first ?? ""
        let drawn = sparklines.hasPrefix("req/s ") && sparklines.contains { "▁▂▃▄▅▆▇█".contains($0) }
        print("\(drawn ? "PASS" : "FAIL") the measured frames draw the sparkline row: \(sparklines.prefix(60))…")
        if cells == 0 { print("(no cells)") }
        return pass && drawn
    }
}
