import CacheEvents
import SessionLog
import Dashboard
import Testing
import TerminalUI

/// Every view at 80×24, 120×40 and 160×50, compared with the files in `Snapshots/` (text and
/// role mask). The input is ``SampleSession`` at a fixed clock, so the frames never change
/// unless the layout does.
@Suite("Layout snapshots")
struct LayoutSnapshotTests {
    /// The sample session after `keys`, rendered at `size` and compared with its snapshot.
    private func snapshot(after keys: [Key], named name: String, size: TerminalSize) throws {
        var state = SampleSession.state()
        press(keys, on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name(name, size))
    }

    @Test("Requests view: newest first, third row selected", arguments: SnapshotSizes.all)
    func requests(size: TerminalSize) throws {
        try snapshot(after: [.down, .down], named: "requests", size: size)
    }

    @Test("Entries view: sorted by TTL, one row marked, the next selected", arguments: SnapshotSizes.all)
    func entries(size: TerminalSize) throws {
        try snapshot(after: [.character("2"), .down, .character("m")], named: "entries", size: size)
    }

    @Test("Entries view sorted by size, reversed", arguments: [TerminalSize(columns: 120, rows: 40)])
    func entriesSortedBySize(size: TerminalSize) throws {
        try snapshot(after: [.character("2"), .character("o"), .character("O")], named: "entries-size-reversed", size: size)
    }

    @Test("Stats view: every figure with its definition", arguments: SnapshotSizes.all)
    func stats(size: TerminalSize) throws {
        try snapshot(after: [.character("3")], named: "stats", size: size)
    }

    @Test("Detail pane of a request: decision, Cache-Control in words, escaped headers", arguments: SnapshotSizes.all)
    func requestDetail(size: TerminalSize) throws {
        try snapshot(after: [.down, .down, .enter], named: "detail-request", size: size)
    }

    @Test("Detail pane of a revalidated request", arguments: [TerminalSize(columns: 120, rows: 40)])
    func revalidatedDetail(size: TerminalSize) throws {
        try snapshot(after: [.character("G"), .up, .enter], named: "detail-revalidated", size: size)
    }

    @Test("Detail pane of an entry, with the latest request for its key", arguments: SnapshotSizes.all)
    func entryDetail(size: TerminalSize) throws {
        try snapshot(after: [.character("2"), .down, .down, .enter], named: "detail-entry", size: size)
    }

    @Test("Help: every key and every figure", arguments: SnapshotSizes.all)
    func help(size: TerminalSize) throws {
        try snapshot(after: [.character("?")], named: "help", size: size)
    }

    @Test("Confirm prompt for purge all", arguments: SnapshotSizes.all)
    func confirm(size: TerminalSize) throws {
        try snapshot(after: [.character("2"), .character("D")], named: "confirm", size: size)
    }

    @Test("Search prompt while typing: the first match is selected and highlighted", arguments: SnapshotSizes.all)
    func search(size: TerminalSize) throws {
        try snapshot(after: [.character("/"), .character("m"), .character("a"), .character("x")], named: "search", size: size)
    }

    @Test("Filter prompt with a parse error: the character at its column marked, nothing applied", arguments: SnapshotSizes.all)
    func filterError(size: TerminalSize) throws {
        try snapshot(after: [.character("f")] + "outcome:mis & (bg".map { Key.character($0) }, named: "filter-error", size: size)
    }

    @Test("Filtered Requests view: the header shows the filter, the tab bar N of M", arguments: SnapshotSizes.all)
    func filtered(size: TerminalSize) throws {
        try snapshot(after: [.character("f")] + "outcome:miss | status>=500".map { Key.character($0) } + [.enter],
                     named: "filtered", size: size)
    }

    @Test("Purge preview of marked keys", arguments: [TerminalSize(columns: 120, rows: 40)])
    func purgePreview(size: TerminalSize) throws {
        try snapshot(after: [.character("2"), .character("m"), .character("m"), .character("d")], named: "purge-preview", size: size)
    }

    @Test("Frozen display: the header says FROZEN and the instant shown, the rows stand still", arguments: [TerminalSize(columns: 120, rows: 40)])
    func paused(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character(" ")], on: &state, size: size)
        for event in SampleSession.laterEvents { state.apply(event) }
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("paused", size))
    }

    @Test("Replay header: speed, position and play state; the status line explains commands", arguments: [TerminalSize(columns: 120, rows: 40)])
    func replay(size: TerminalSize) throws {
        var state = SampleSession.state(mode: .replay(ReplayStatus(
            speed: .realTime.doubled, position: 65, length: 240, isPlaying: true, eventsApplied: 54, eventCount: 300)))
        press([.character("d")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("replay", size))
    }

    @Test("Compact layout down to 40×10", arguments: [TerminalSize(columns: 40, rows: 10), TerminalSize(columns: 60, rows: 16)])
    func compact(size: TerminalSize) throws {
        var state = SampleSession.state()
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("compact-requests", size))
        press([.character("2")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("compact-entries", size))
    }

    @Test("Below 40×10: terminal too small, with the size needed",
          arguments: [TerminalSize(columns: 39, rows: 24), TerminalSize(columns: 80, rows: 9), TerminalSize(columns: 20, rows: 5)])
    func tooSmall(size: TerminalSize) throws {
        Snapshot.check(try render(SampleSession.state(), size: size), SnapshotSizes.name("too-small", size))
    }
}
