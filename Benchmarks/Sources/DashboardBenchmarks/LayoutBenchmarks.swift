import BenchmarkSupport
import CacheEvents
import Dashboard
import TerminalUI
import TrafficFilter

/// How long laying out one frame takes with a full request ring and ~2,000 entries.
enum LayoutBenchmarks {
    /// Renders each view at 200×60; target ≤ 2 ms per frame (median).
    static func frames() throws -> Bool {
        var traffic = SyntheticTraffic(seed: 3)
        var state = DashboardState()
        for event in traffic.events(300_000) { state.apply(event) }
        state.interface.screen = TerminalSize(columns: 200, rows: 60)
        let size = TerminalSize(columns: 200, rows: 60)
        let theme = try ThemeLoader.builtIn(named: "default")
        let now = state.traffic.clock
        print("  state: \(state.traffic.requests.count) requests, \(state.traffic.entries.count) entries")
        var pass = true
        let views: [(String, [Key])] = [
            ("Requests", []), ("Entries", [.character("2")]), ("Stats", [.character("3")]),
            ("request detail", [.character("1"), .down, .enter]), ("help", [.escape, .character("?")]),
            ("search match", [.escape, .character("/"), .character("i"), .character("t"), .character("e"), .character("m")]),
            ("Requests, filter outcome:miss", [.escape, .escape, .character("1"), .character("f")] + "outcome:miss".map { Key.character($0) } + [.enter]),
            ("Entries, filter outcome:miss", [.character("2")]),
            ("Requests, filter with a regex", [.character("1"), .character("f")] + " | url~\"item.[0-9]+9\"".map { Key.character($0) } + [.enter]),
        ]
        var cells = 0
        for (name, keys) in views {
            for key in keys { _ = DashboardKeys.handle(key, state: &state) }
            let frozen = state
            let measurement = measure("layout 200×60 \(name)", samples: 200, warmup: 20) {
                cells &+= DashboardLayout.render(frozen, size: size, theme: theme, now: now).width
            }
            pass = check(measurement, atMost: 0.002) && pass
        }
        // The frames above reuse the request log's remembered verdicts, as a live frame does
        // for every request but the new and changing ones. The first frame after the filter
        // changes matches every kept request: information, not a verdict.
        if let filter = state.interface.filter {
            let log = state.shown.requests
            var listed = 0
            let cold = measure("matching every kept request once (\(filter.text))", samples: 20, warmup: 2) {
                listed &+= log.serials { filter.matches($0) }.count
            }
            print(cold.summary)
            if listed == 0 { print("(none listed)") }
        }
        if cells == 0 { print("(no cells)") }
        return pass
    }
}
