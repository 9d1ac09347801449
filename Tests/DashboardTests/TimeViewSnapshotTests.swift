import Dashboard
import SessionLog
import Testing
import TerminalUI

/// The sparkline row and the Stats view (histogram, percentiles, ratios, expiry, top misses,
/// evictions over time) at 80×24 and 200×60, in the default theme and in mono (ASCII
/// sparklines and bars), compared with the files in `Snapshots/`.
@Suite("Time views: sparklines and Stats snapshots")
struct TimeViewSnapshotTests {
    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]

    private func check(after keys: [Key], named name: String, size: TerminalSize, theme: String) throws {
        var state = SampleSession.state()
        press(keys, on: &state, size: size)
        let suffix = theme == "mono" ? "-mono" : ""
        Snapshot.check(try render(state, size: size, theme: theme), SnapshotSizes.name(name + suffix, size))
    }

    @Test("Stats view: histogram by outcome, percentiles, ratios, expiry, top misses", arguments: sizes, ["default", "mono"])
    func stats(size: TerminalSize, theme: String) throws {
        try check(after: [.character("3")], named: "stats", size: size, theme: theme)
    }

    @Test("Stats view scrolled to the top misses and evictions over time", arguments: [TerminalSize(columns: 80, rows: 24)])
    func statsScrolled(size: TerminalSize) throws {
        try check(after: [.character("3"), .pageDown], named: "stats-scrolled", size: size, theme: "default")
    }

    @Test("Requests view with the sparkline row under the header", arguments: sizes, ["default", "mono"])
    func sparklines(size: TerminalSize, theme: String) throws {
        try check(after: [], named: "sparklines", size: size, theme: theme)
    }

    @Test("Replay: the sparklines cover the whole session up to the playhead")
    func replaySparklines() throws {
        let size = TerminalSize(columns: 200, rows: 60)
        let state = SampleSession.state(mode: .replay(ReplayStatus(
            speed: .realTime, position: 12, length: 12, isPlaying: false, eventsApplied: 60, eventCount: 60)))
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("sparklines-replay", size))
    }
}
