import CacheEvents
import CacheStore
import HTTPCaching
import Testing
import TerminalUI
import TrafficFilter
@testable import Dashboard

/// The filter prompt, its history and completion, drill-down and the filtered views, at the
/// level of state and layout.
@Suite("Filter prompt and filtered views")
struct FilterKeysTests {
    private func type(_ text: String) -> [Key] { text.map { Key.character($0) } }

    private func shownRequests(_ state: DashboardState) -> [RequestRecord] {
        RequestWindow(log: state.shown.requests, interface: state.interface, rows: 100).serials
            .compactMap { state.shown.requests[serial: $0] }
    }

    private func screen(_ state: DashboardState) throws -> String {
        try render(state, size: TerminalSize(columns: 120, rows: 40)).text
    }

    /// Pasting `outcome:miss⏎t` into the prompt applied the filter and then switched the theme;
    /// a pasted `e` purged expired entries and a pasted `y` answered a purge question.
    @Test("pasted text goes into the open prompt, its line breaks as spaces; without a prompt it is ignored, saying so")
    func pastedText() {
        var state = SampleSession.state()
        var effects = press([.character("f"), .pasteStart] + type("outcome:miss") + [.enter] + type("t") + [.pasteEnd], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss t", "the whole paste is prompt text")
        #expect(!effects.contains(.nextTheme))
        #expect(state.interface.filter == nil, "not applied until Enter is pressed")

        state = SampleSession.state()
        let keys: [Key] = [.pasteStart] + type("eDy") + [.enter, .escape] + type("R") + [.pasteEnd]
        for key in keys {
            effects = DashboardKeys.handle(key, state: &state)
            #expect(!effects.contains { if case .send = $0 { true } else { false } }, "\(key) sent a command")
        }
        #expect(state.interface.overlay == nil, "no purge question opened")
        #expect(state.interface.status == StatusMessage(DashboardState.pasteWithoutPrompt, kind: .failure))
        press([.character("D"), .pasteStart] + type("y") + [.pasteEnd], on: &state)
        #expect(state.interface.overlay == .confirmPurgeAll, "a pasted y does not answer the question")
    }

    /// A pattern ICU gives up on (it backtracks without end on one row) hid rows without a word.
    @Test("a filter pattern given up on a row is said once on the status line")
    func givenUpPattern() throws {
        var state = SampleSession.state()
        let hostile = "GET http://127.0.0.1:8080/" + String(repeating: "b", count: 40) + "!"
        state.apply(CacheEvent(seq: 900, time: SampleSession.now, kind: .entries(EntriesSnapshot(entries: [
            EntryInfo(entry: EntryRef(key: hostile), tier: .memory, size: 10, ttl: 50, age: 0, etag: nil, lastModified: nil, hits: 0, idle: 0, status: 200),
        ]))))
        press([.character("2"), .character("f")] + type(#"url~"(b+)+$""#) + [.enter], on: &state)
        #expect(state.interface.filter?.text == #"url~"(b+)+$""#)
        _ = try screen(state)
        var reported = state.reportFilterGiveUp()
        #expect(reported)
        #expect(state.interface.status?.kind == .failure)
        #expect(state.interface.status?.text.contains("took too long (about 10 ms) on one text and was given up") == true, "\(String(describing: state.interface.status))")
        state.setStatus("something else")
        reported = state.reportFilterGiveUp()
        #expect(!reported, "said once")
    }

    @Test("f shows a parse error with its column before anything is applied; Enter refuses it")
    func parseErrorFirst() throws {
        var state = SampleSession.state()
        press([.character("f")] + type("outcome:gr"), on: &state)
        #expect(state.interface.prompt?.error?.column == 9)
        #expect(state.interface.filter == nil)
        press([.enter], on: &state)
        #expect(state.interface.prompt != nil, "the prompt stays open")
        #expect(state.interface.filter == nil, "nothing was applied")
        let text = try screen(state)
        #expect(text.contains("f outcome:gr▏  ✗ column 9: expected an outcome (hit, stale, revalidated, modified, miss, bypass, error), found \"gr\""))
    }

    /// A filter longer than the line was drawn from its start, so its end, the cursor and the
    /// parse error fell off the screen, and Enter silently did nothing.
    @Test("a text longer than the line shows its tail after …, with the cursor and the error in sight", arguments: [80, 120])
    func longPrompt(columns: Int) throws {
        var state = SampleSession.state()
        let text = "outcome:miss & status>=500 & url~\"/api/v[0-9]+/items\" & method:GET & host:cdn.example.com & ttl<3Os"
        press([.character("f")] + type(text), on: &state)
        let error = try #require(state.interface.prompt?.error)
        let lines = try render(state, size: TerminalSize(columns: columns, rows: 40)).text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.last { $0.hasPrefix("f ") }.map(String.init))
        #expect(line.hasPrefix("f …"), "\(line)")
        // The whole error where the line has room for it, its start where not.
        #expect(line.contains("ttl<3Os▏  ✗ " + (columns >= 120 ? error.description : "column 98: expected a unit")), "\(line)")
        #expect(TextWidth.of(line) <= columns)
    }

    @Test("Tab's choices for a half-typed value show, though the half-typed value does not parse")
    func completionChoicesFirst() throws {
        var state = SampleSession.state()
        press([.character("f")] + type("outcome:m") + [.tab], on: &state)
        let candidates = try #require(state.interface.prompt?.candidates)
        #expect(candidates.count > 1, "\(candidates)")
        let text = try screen(state)
        #expect(text.contains("▏  Tab: " + candidates.joined(separator: " ")), "\(text)")
    }

    @Test("a backslash typed in a filter shows once, in the prompt, the header and the empty view; the status line, which quotes the network too, escapes it")
    func typedBackslashes() throws {
        var state = SampleSession.state()
        press([.character("f")] + type(#"url~"item\d""#), on: &state)
        #expect(try screen(state).contains(#"f url~"item\d"▏"#))
        press([.enter], on: &state)
        let lines = try screen(state).split(separator: "\n")
        #expect(lines.first { $0.contains(#"filter url~"item\d""#) } != nil, "the header: \(lines)")
        #expect(lines.first { $0.contains(#"matches the filter url~"item\d": Esc clears it"#) } != nil, "the empty view: \(lines)")
        let doubled = lines.dropLast().filter { $0.contains(#"\\d"#) }
        #expect(doubled.isEmpty, "\(doubled)")
        #expect(lines.last?.contains(#"filter url~"item\\d": 0 of"#) == true, "the status line: \(lines.last ?? "")")
    }

    /// Every key re-checks the text, so a 10,000-character paste took 25 s of CPU.
    @Test("the prompt holds at most 1,000 characters; one more is refused with a message, and Enter does not apply the cut text")
    func promptLength() throws {
        var state = SampleSession.state()
        press([.character("f")] + type(String(repeating: "a", count: FilterPrompt.maximumLength + 500)), on: &state)
        #expect(state.interface.prompt?.text.count == FilterPrompt.maximumLength)
        #expect(state.interface.prompt?.error?.description == "column 1001: expected at most 1000 characters in the prompt, found more text")
        press([.enter], on: &state)
        #expect(state.interface.filter == nil, "a cut paste is not applied")
        press([.backspace, .enter], on: &state)
        #expect(state.interface.filter?.text == String(repeating: "a", count: FilterPrompt.maximumLength - 1))
        // Tab's completion is held to the same limit (it took the text to 1,004).
        let nearly = String(repeating: "a", count: FilterPrompt.maximumLength - 7) + " tier:d"
        state.interface.prompt = FilterPrompt(.filter, text: nearly)
        press([.tab], on: &state)
        #expect(state.interface.prompt?.text == nearly)
        #expect(state.interface.prompt?.error?.description.contains("at most 1000 characters") == true)
    }

    /// "No requests yet" was shown under a filter that matched none of hundreds of requests.
    @Test("a filter that matches nothing says so in the Requests and Entries views, not that nothing happened yet")
    func nothingMatches() throws {
        var state = SampleSession.state()
        press([.character("f")] + type("url:zzzz") + [.enter], on: &state)
        let requests = try screen(state)
        #expect(requests.contains("No request of the \(state.shown.requests.count) shown matches the filter url:zzzz: Esc clears it, f changes it."), "\(requests)")
        #expect(!requests.contains("No requests yet"))
        press([.character("2")], on: &state)
        let entries = try screen(state)
        #expect(entries.contains("No entry of the \(state.shown.entries.count) stored matches the filter url:zzzz"), "\(entries)")
        press([.escape], on: &state)
        #expect(!(try screen(state)).contains("matches the filter"))
    }

    /// A filter wider than the line pushed every figure off it, the filter too: only LIVE was left.
    @Test("a filter too long for the header's first line is cut there, and the figures stay")
    func longFilterInHeader() throws {
        var state = SampleSession.state()
        let long = "url:" + String(repeating: "b", count: 110)
        press([.character("f")] + type(long) + [.enter], on: &state)
        #expect(state.interface.filter?.text == long)
        let first = try screen(state).split(separator: "\n", omittingEmptySubsequences: false)[0]
        #expect(first.contains("LIVE") && first.contains("f:url:bbbb") && first.contains("…"), "\(first)")
        #expect(first.contains("req/s"), "the figures are still there: \(first)")
    }

    @Test("a filter that parses narrows the Requests view; the header shows it; Esc clears it")
    func narrowsRequests() throws {
        var state = SampleSession.state()
        press([.character("f")] + type("outcome:miss & !url:vary") + [.enter], on: &state)
        #expect(state.interface.prompt == nil)
        #expect(state.interface.filter?.text == "outcome:miss & !url:vary")
        let rows = shownRequests(state)
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.outcome == .miss && !$0.url.contains("vary") })
        #expect(rows.map(\.id) == [9, 7, 2])
        #expect(selectedRequestID(state) == 9, "the selection follows the newest matching request")
        let text = try screen(state)
        #expect(text.split(separator: "\n").first?.contains("filter outcome:miss & !url:vary") == true)
        #expect(text.contains("3 of 11 rows"))
        press([.down], on: &state)
        #expect(selectedRequestID(state) == 7, "moving skips the rows the filter hides")
        press([.escape], on: &state)
        #expect(state.interface.filter == nil)
        #expect(RequestRows(log: state.shown.requests, filter: state.interface.filter).count == 11)
    }

    @Test("f opens with the active filter; ↑ ↓ walk the history and come back to what was typed")
    func history() {
        var state = SampleSession.state()
        press([.character("f")] + type("outcome:miss") + [.enter], on: &state)
        press([.character("f")] + type(" & status:200") + [.enter], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss & status:200")
        press([.character("f"), .backspace], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss & status:20")
        press([.up], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss & status:200")
        press([.up], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss")
        press([.up], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss", "the oldest stays")
        press([.down, .down], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss & status:20", "past the newest: what was typed")
        press([.escape], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss & status:200", "Esc in the prompt keeps the filter")
    }

    @Test("Tab completes field names and outcome words; several candidates are listed")
    func completion() throws {
        var state = SampleSession.state()
        press([.character("f")] + type("out") + [.tab], on: &state)
        #expect(state.interface.prompt?.text == "outcome:")
        press(type("mi") + [.tab], on: &state)
        #expect(state.interface.prompt?.text == "outcome:miss ")
        press(type("& t") + [.tab], on: &state)
        #expect(state.interface.prompt?.candidates == ["ttl", "tier", "tag"])
        #expect(try screen(state).contains("Tab: ttl tier"))
    }

    @Test("drill-down adds the selected row's value of the drill-down column to the filter")
    func drillDown() throws {
        var state = SampleSession.state()
        press(type("/no-store") + [.enter], on: &state)   // request 2: GET /no-store, a miss, 200
        press([.character("c"), .character("c"), .character("c")], on: &state)
        #expect(state.drillColumnID == "outcome")
        #expect(try screen(state).contains("+OUTCOME"))
        press([.character("+")], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss")
        press([.character("c"), .character("+")], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss & status:200")
        let rows = shownRequests(state)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.outcome == .miss && $0.status == 200 })
        press([.character("c"), .character("+")], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss & status:200 & host=127.0.0.1")
        #expect(state.interface.history.entries.last == "outcome:miss & status:200 & host=127.0.0.1")
        // Pressed again on the same value: no second copy of it.
        press([.character("+")], on: &state)
        #expect(state.interface.filter?.text == "outcome:miss & status:200 & host=127.0.0.1")
        #expect(state.interface.status?.text == "the filter already has host=127.0.0.1")
    }

    @Test("the filter applies to entries too; fields an entry lacks never match")
    func entries() throws {
        var state = SampleSession.state()
        state.interface.now = SampleSession.now
        press([.character("2"), .character("f")] + type("size>1KB") + [.enter], on: &state)
        let window = EntryWindow(table: state.shown.entries, interface: state.interface, rows: 100, now: state.now)
        #expect(!window.rows.isEmpty)
        #expect(window.rows.allSatisfy { $0.size > 1024 })
        #expect(window.rows.count < state.shown.entries.count)
        press([.character("f")] + type("|outcome:miss") + [.enter], on: &state)
        #expect(EntryWindow(table: state.shown.entries, interface: state.interface, rows: 100, now: state.now).rows.count
            == window.rows.count, "outcome does not apply to entries")
    }

    @Test("? shows the filter language in short: every field with an example, and the operators")
    func helpShortForm() {
        let text = HelpContent.lines(state: SampleSession.state(), width: 200).map { $0.map(\.text).joined() }.joined(separator: "\n")
        #expect(text.contains("Filter language (f, /, :purge, --filter; docs/filter.md)"))
        for field in FilterField.allCases { #expect(text.contains(field.help), "\(field)") }
        #expect(text.contains("! not, & and (or a space), | or"))
    }

    @Test("history keeps each text once, newest last, at most 50")
    func historyBound() {
        var history = FilterHistory()
        for index in 0..<60 { history.add("status:\(index)") }
        history.add("status:30")
        history.add("  ")
        #expect(history.entries.count == 50)
        #expect(history.entries.last == "status:30")
        #expect(history.entries.filter { $0 == "status:30" }.count == 1)
    }

    private func selectedRequestID(_ state: DashboardState) -> UInt64? {
        guard case .request(let serial)? = state.selectedTarget else { return nil }
        return state.shown.requests[serial: serial]?.id
    }
}
