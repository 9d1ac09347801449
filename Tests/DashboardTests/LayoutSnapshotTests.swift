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
    @Test("Requests view: newest first, third row selected", arguments: SnapshotSizes.all)
    func requests(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.down, .down], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("requests", size))
    }

    @Test("Entries view: sorted by TTL, one row marked, the next selected", arguments: SnapshotSizes.all)
    func entries(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("2"), .down, .character("m")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("entries", size))
    }

    @Test("Entries view sorted by size, reversed", arguments: [TerminalSize(columns: 120, rows: 40)])
    func entriesSortedBySize(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("2"), .character("o"), .character("O")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("entries-size-reversed", size))
    }

    @Test("Stats view: every figure with its definition", arguments: SnapshotSizes.all)
    func stats(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("3")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("stats", size))
    }

    @Test("Detail pane of a request: decision, Cache-Control in words, escaped headers", arguments: SnapshotSizes.all)
    func requestDetail(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.down, .down, .enter], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("detail-request", size))
    }

    @Test("Detail pane of a revalidated request", arguments: [TerminalSize(columns: 120, rows: 40)])
    func revalidatedDetail(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("G"), .up, .enter], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("detail-revalidated", size))
    }

    @Test("Detail pane of an entry, with the latest request for its key", arguments: SnapshotSizes.all)
    func entryDetail(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("2"), .down, .down, .enter], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("detail-entry", size))
    }

    @Test("Help: every key and every figure", arguments: SnapshotSizes.all)
    func help(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("?")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("help", size))
    }

    @Test("Confirm prompt for purge all", arguments: SnapshotSizes.all)
    func confirm(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("2"), .character("D")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("confirm", size))
    }

    @Test("Search prompt while typing: the first match is selected and highlighted", arguments: SnapshotSizes.all)
    func search(size: TerminalSize) throws {
        var state = SampleSession.state()
        press([.character("/"), .character("m"), .character("a"), .character("x")], on: &state, size: size)
        Snapshot.check(try render(state, size: size), SnapshotSizes.name("search", size))
    }

    @Test("Paused display: the header says PAUSED, the rows stand still", arguments: [TerminalSize(columns: 120, rows: 40)])
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
