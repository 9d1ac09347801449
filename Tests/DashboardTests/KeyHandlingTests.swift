import CacheStore
import CacheEvents
import SessionLog
import Testing
import TerminalUI
@testable import Dashboard

/// Keys are a pure function of state: these tests press keys and check the state and the
/// effects the app would carry out.
@Suite("Key handling")
struct KeyHandlingTests {
    private func selectedRequest(_ state: DashboardState) -> RequestRecord? {
        guard case .request(let serial)? = state.selectedTarget else { return nil }
        return state.shown.requests[serial: serial]
    }

    private func selectedEntry(_ state: DashboardState) -> EntryRef? {
        guard case .entry(let id)? = state.selectedTarget else { return nil }
        return id.ref
    }

    @Test("The Requests view follows the newest request until you move; g follows again")
    func follow() {
        var state = SampleSession.state()
        #expect(selectedRequest(state)?.id == 11)
        press([.down], on: &state)
        #expect(selectedRequest(state)?.id == 10)
        for event in SampleSession.laterEvents { state.apply(event) }
        #expect(selectedRequest(state)?.id == 10, "the selection stays on its request as newer ones arrive")
        press([.character("g")], on: &state)
        #expect(selectedRequest(state)?.id == 13)
        press([.down, .up], on: &state)
        #expect(state.interface.requestSelection == nil, "moving back up to the newest follows again")
    }

    @Test("j, k, PgDn, PgUp and G move within the rows and stop at the ends")
    func movement() {
        var state = SampleSession.state()
        let size = TerminalSize(columns: 80, rows: 13)   // compact: 7 rows of requests per page
        press([.character("j"), .character("j")], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 9)
        press([.pageDown], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 2)
        press([.pageDown, .pageDown], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 1, "the oldest row stops the selection")
        press([.character("k")], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 2)
        press([.character("G")], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 1)
        press([.pageUp, .pageUp], on: &state, size: size)
        #expect(selectedRequest(state)?.id == 11)
        #expect(state.interface.requestSelection == nil)
    }

    @Test("Tab, Shift-Tab and 1 2 3 switch views; q closes an overlay and quits at the top; Q quits at once")
    func viewsAndQuit() {
        var state = SampleSession.state()
        press([.tab], on: &state)
        #expect(state.interface.view == .entries)
        press([.tab, .tab], on: &state)
        #expect(state.interface.view == .requests)
        press([.backTab], on: &state)
        #expect(state.interface.view == .stats)
        press([.character("1")], on: &state)
        #expect(state.interface.view == .requests)
        press([.character("?")], on: &state)
        #expect(state.interface.overlay == .help)
        #expect(press([.character("q")], on: &state) == [.redraw])
        #expect(state.interface.overlay == nil)
        #expect(press([.character("q")], on: &state) == [.quit])
        press([.function(1)], on: &state)
        #expect(press([.character("Q")], on: &state) == [.quit])
    }

    @Test("Enter opens the detail of the selected row and pins it; Esc goes back")
    func details() {
        var state = SampleSession.state()
        press([.down, .enter], on: &state)
        #expect(state.interface.overlay == .detail(.request(serial: 9)))
        for event in SampleSession.laterEvents { state.apply(event) }
        #expect(state.interface.overlay == .detail(.request(serial: 9)), "new requests do not move the detail")
        press([.escape], on: &state)
        #expect(state.interface.overlay == nil)
        #expect(selectedRequest(state)?.id == 10)
        press([.character("3"), .enter], on: &state)
        #expect(state.interface.overlay == nil)
        #expect(state.interface.status?.text == "details are for rows of the Requests and Entries views")
    }

    @Test("Space pauses the display while collection goes on; F resumes and follows")
    func pause() {
        var state = SampleSession.state()
        press([.character(" ")], on: &state)
        #expect(state.isPaused)
        for event in SampleSession.laterEvents { state.apply(event) }
        #expect(state.shown.counters.requests == 10, "the display stands still")
        #expect(state.traffic.counters.requests == 12, "collection goes on")
        press([.down, .character("F")], on: &state)
        #expect(!state.isPaused)
        #expect(selectedRequest(state)?.id == 13)
        #expect(state.interface.status?.text == "following new requests")
        press([.character(" "), .character(" ")], on: &state)
        #expect(!state.isPaused)
    }

    @Test("d purges the selected entry, or in the Requests view the selected request's key")
    func purgeSelected() {
        var state = SampleSession.state()
        press([.down], on: &state)
        #expect(press([.character("d")], on: &state) == [.send(.purge(key: SampleSession.key("/vary/lang?id=1"))), .redraw])
        #expect(state.interface.status?.text == "purging \(SampleSession.key("/vary/lang?id=1"))…")

        press([.character("2")], on: &state)
        #expect(selectedEntry(state) == EntryRef(key: SampleSession.key("/rotating")), "soonest to expire first")
        #expect(press([.character("d")], on: &state) == [.send(.purge(key: SampleSession.key("/rotating"))), .redraw])
    }

    @Test("After d, the selection moves to the row below the purged one, even when rows above it went since it was chosen")
    func selectionAfterPurge() throws {
        var state = SampleSession.state()
        press([.character("2"), .character("o"), .character("o"), .character("o")], on: &state)   // sort by key
        let before = EntryWindow(table: state.shown.entries, interface: state.interface, rows: 20, now: SampleSession.now).rows.map(\.ref)
        try #require(before.count >= 4)
        press([.character("g"), .down, .down], on: &state)
        #expect(selectedEntry(state) == before[2])
        // The top row goes (expired, purged elsewhere): the selected entry is now the second row.
        func evict(_ ref: EntryRef, from state: inout DashboardState) {
            state.apply(CacheEvent(seq: 0, time: SampleSession.now, kind: .evicted(Evicted(entry: ref, reason: .purged, tier: .both, size: 1))))
        }
        evict(before[0], from: &state)
        #expect(selectedEntry(state) == before[2], "the selection stays on its entry")
        let effects = press([.character("d")], on: &state)
        #expect(effects.contains(.send(.purge(key: before[2].key))) || effects == [.redraw], "d purges it or asks first")
        if effects == [.redraw] { press([.character("y")], on: &state) }
        for ref in before where ref.key == before[2].key { evict(ref, from: &state) }
        let next = try #require(before.dropFirst(3).first { $0.key != before[2].key })
        #expect(selectedEntry(state) == next, "the row that followed the purged one, not the one after it")
    }

    @Test("A request without a cache key cannot be purged, and the status line says why")
    func purgeWithoutKey() {
        var state = SampleSession.state()
        press([.character("G"), .up, .up, .up, .up, .up], on: &state)
        #expect(selectedRequest(state)?.method == "POST")
        #expect(press([.character("d")], on: &state) == [.redraw])
        #expect(state.interface.status == StatusMessage("this request has no cache key (its method is not cached)", kind: .failure))
    }

    @Test("m marks keys, d previews and y purges every marked key and clears the marks, U clears them")
    func marks() {
        var state = SampleSession.state()
        press([.character("2"), .character("m"), .character("m")], on: &state)
        #expect(state.interface.marks == [
            PurgeTarget(key: SampleSession.key("/rotating")), PurgeTarget(key: SampleSession.key("/evil\u{1B}[2J?q=東京")),
        ])
        #expect(state.interface.status?.text == "2 marked: d purges them, U clears")
        #expect(press([.character("d")], on: &state) == [.redraw])
        #expect(state.interface.status?.text == "purge 2 entries, 1000 B, 0 of them hit in the last minute? y/n")
        let effects = press([.character("y")], on: &state)
        #expect(effects == [
            .purgeEach([
                PurgeTarget(key: SampleSession.key("/evil\u{1B}[2J?q=東京")): 1, PurgeTarget(key: SampleSession.key("/rotating")): 1,
            ]),
            .redraw,
        ])
        #expect(state.interface.marks.isEmpty)
        press([.character("m"), .character("U")], on: &state)
        #expect(state.interface.marks.isEmpty)
    }

    @Test("D asks first: y purges everything, n cancels, other keys repeat the question")
    func purgeAll() {
        var state = SampleSession.state()
        #expect(press([.character("D")], on: &state) == [.redraw])
        #expect(state.interface.overlay == .confirmPurgeAll)
        #expect(press([.character("x")], on: &state) == [.redraw])
        #expect(state.interface.status?.text == "purge every stored entry? press y to purge, n to cancel")
        #expect(press([.character("n")], on: &state) == [.redraw])
        #expect(state.interface.overlay == nil)
        #expect(state.interface.status?.text == "purge all cancelled")
        #expect(press([.character("D"), .character("y")], on: &state) == [.send(.purgeAll), .redraw])
        #expect(state.interface.overlay == nil)
    }

    @Test("e purges expired entries; r refreshes and R reloads the selected entry with its variant")
    func refreshAndReload() {
        var state = SampleSession.state()
        #expect(press([.character("e")], on: &state) == [.send(.purgeExpired), .redraw])
        press([.character("2"), .character("o"), .character("o"), .character("o")], on: &state)   // sort by key
        #expect(state.interface.sort.column == .url)
        press([.character("G")], on: &state)
        let key = SampleSession.key("/vary/lang?id=1")
        #expect(selectedEntry(state) == EntryRef(key: key, variant: "accept-language=\"fr\""))
        #expect(press([.character("r")], on: &state) == [.send(.refresh(key: key, variant: "accept-language=\"fr\"")), .redraw])
        #expect(state.interface.status?.text == "refreshing \(key)…")
        #expect(press([.character("R")], on: &state) == [.send(.reload(key: key, variant: "accept-language=\"fr\"")), .redraw])
        press([.character("1")], on: &state)
        #expect(press([.character("r")], on: &state) == [.send(.refresh(key: SampleSession.key("/slow?ms=2000"), variant: nil)), .redraw])
    }

    @Test("In a replay, commands are refused with a reason; the replay keys steer the replayer")
    func replay() {
        var state = SampleSession.state(mode: .replay(ReplayStatus()))
        for key: Key in [.character("d"), .character("D"), .character("e"), .character("r"), .character("R")] {
            #expect(press([key], on: &state) == [.redraw])
            #expect(state.interface.status == StatusMessage(DashboardState.replayCannotSend, kind: .failure))
            #expect(state.interface.overlay == nil)
        }
        press([.character("m")], on: &state)
        #expect(state.interface.marks.isEmpty)
        #expect(state.interface.status == StatusMessage(DashboardState.marksInReplay, kind: .failure), "not about purge, refresh and reload")
        #expect(press([.character(" ")], on: &state) == [.replay(.togglePlaying), .redraw])
        #expect(!state.isPaused, "Space plays and pauses the replay, not the display")
        #expect(press([.character("<")], on: &state) == [.replay(.slower), .redraw])
        #expect(press([.character(">")], on: &state) == [.replay(.faster), .redraw])
        #expect(press([.character("[")], on: &state) == [.replay(.stepBack), .redraw])
        #expect(press([.character("]")], on: &state) == [.replay(.stepForward), .redraw])
        #expect(press([.left], on: &state) == [.replay(.seek(seconds: -10)), .redraw])
        #expect(press([.right], on: &state) == [.replay(.seek(seconds: 10)), .redraw])
        #expect(press([.character("0")], on: &state) == [.replay(.seekFraction(0)), .redraw])
        #expect(press([.character("7")], on: &state) == [.replay(.seekFraction(0.7)), .redraw])
        #expect(press([.character("$")], on: &state) == [.replay(.end), .redraw])
        #expect(state.interface.view == .requests, "digits seek in a replay; Tab switches views")
        press([.tab], on: &state)
        #expect(state.interface.view == .entries)
    }

    @Test("Search is incremental, n and N move between matches, Esc returns to where it started")
    func search() {
        var state = SampleSession.state()
        press("/no-s".map { Key.character($0) }, on: &state)
        #expect(state.interface.prompt?.purpose == .search)
        #expect(selectedRequest(state)?.id == 2, "'no-s' is plain text, a URL substring: /no-store")
        press([.backspace, .backspace, .backspace], on: &state)
        #expect(state.interface.prompt?.text == "n")
        press([.escape], on: &state)
        #expect(state.interface.search == SearchState())
        #expect(state.interface.prompt == nil)
        #expect(selectedRequest(state)?.id == 11, "Esc goes back to the selection before the search")

        press("/max-age".map { Key.character($0) } + [.enter], on: &state)
        #expect(state.interface.prompt == nil)
        #expect(selectedRequest(state)?.id == 7)
        press([.character("n")], on: &state)
        #expect(selectedRequest(state)?.id == 1)
        press([.character("n")], on: &state)
        #expect(selectedRequest(state)?.id == 7, "wraps around")
        press([.character("N")], on: &state)
        #expect(selectedRequest(state)?.id == 1)
        press("/zz".map { Key.character($0) } + [.enter], on: &state)
        #expect(state.interface.status == StatusMessage("no match for zz", kind: .failure))
    }

    @Test("Search takes the filter language: fields, operators and precedence")
    func searchExpressions() {
        var state = SampleSession.state()
        press("/outcome:error".map { Key.character($0) } + [.enter], on: &state)
        #expect(selectedRequest(state)?.id == 8)
        press("/method:POST | outcome:stale".map { Key.character($0) } + [.enter], on: &state)
        #expect(selectedRequest(state)?.id == 6)
        press([.character("n")], on: &state)
        #expect(selectedRequest(state)?.id == 5)
    }

    @Test("o cycles the sort column and O reverses it, in the Entries view only")
    func sort() {
        var state = SampleSession.state()
        press([.character("o")], on: &state)
        #expect(state.interface.sort == EntrySort())
        #expect(state.interface.status?.text == "the Requests view is in arrival order; o and O sort the Entries view (2)")
        press([.character("2"), .character("o")], on: &state)
        #expect(state.interface.sort.column == .size)
        #expect(selectedEntry(state) == EntryRef(key: SampleSession.key("/rotating")), "the selection stays on its entry")
        press([.character("O")], on: &state)
        #expect(state.interface.sort == EntrySort(column: .size, reversed: true))
        press([.character("o"), .character("o"), .character("o")], on: &state)
        #expect(state.interface.sort == EntrySort(column: .ttl), "a new column starts in its natural order")
    }

    @Test("t asks for the next theme; resize asks for a frame; unknown keys do nothing")
    func themeAndUnknown() {
        var state = SampleSession.state()
        #expect(press([.character("t")], on: &state) == [.nextTheme, .redraw])
        #expect(press([.resize], on: &state) == [.redraw])
        #expect(press([.character("~")], on: &state) == [])
        #expect(press([.function(9)], on: &state) == [])
    }

    @Test("In the help and the details, movement keys scroll the text and stop at its end")
    func scrolling() {
        var state = SampleSession.state()
        press([.character("?"), .pageDown, .pageDown], on: &state)
        #expect(state.interface.scroll > 0)
        press([.character("G")], on: &state)
        let bottom = state.interface.scroll
        press([.down, .down], on: &state)
        #expect(state.interface.scroll == bottom)
        press([.character("g")], on: &state)
        #expect(state.interface.scroll == 0)
        press([.up], on: &state)
        #expect(state.interface.scroll == 0)
    }
}
