public import TerminalUI

/// Every key the dashboard knows, in one table that key handling, the help screen, the footer
/// and `docs/dashboard.md` all follow (the DESIGN.md key table).
public enum KeyTable {
    /// The bindings in help order. In a replay the replay bindings come first, so `Space`,
    /// `←` `→` and the digits control the replay there (views are then reached with `Tab`).
    public static let bindings: [KeyBinding] = [
        // Move
        KeyBinding("Move", [.up, .character("k")], "↑ k", .moveUp, "select the row above (newer); scroll up"),
        KeyBinding("Move", [.down, .character("j")], "↓ j", .moveDown, "select the row below (older); scroll down"),
        KeyBinding("Move", [.pageUp], "PgUp", .pageUp, "one screen up"),
        KeyBinding("Move", [.pageDown], "PgDn", .pageDown, "one screen down"),
        KeyBinding("Move", [.character("g"), .home], "g Home", .top, "first row (Requests: the newest, following again)"),
        KeyBinding("Move", [.character("G"), .end], "G End", .bottom, "last row"),
        // Views
        KeyBinding("Views", [.tab], "Tab", .nextView, "next view", hint: "Tab view"),
        KeyBinding("Views", [.backTab], "Shift-Tab", .previousView, "previous view"),
        KeyBinding("Views", [.character("1")], "1", .showView(.requests), "Requests view", scope: .notReplay),
        KeyBinding("Views", [.character("2")], "2", .showView(.entries), "Entries view", scope: .notReplay),
        KeyBinding("Views", [.character("3")], "3", .showView(.stats), "Stats view", scope: .notReplay),
        KeyBinding("Views", [.enter], "Enter", .details, "details of the selected row: headers, Cache-Control, decision",
                   hint: "Enter details", views: [.requests, .entries]),
        KeyBinding("Views", [.escape], "Esc", .back, "back: close the details or the help; clear the search, then the filter"),
        KeyBinding("Views", [.character("?"), .function(1), .character("h")], "? F1 h", .help, "this help", hint: "? help"),
        // Filter, search and sort
        KeyBinding("Filter, search and sort", [.character("f")], "f", .filter,
                   "filter the rows by an expression (outcome:miss & status>=500; docs/filter.md); Tab completes, ↑↓ history",
                   hint: "f filter", views: [.requests, .entries]),
        KeyBinding("Filter, search and sort", [.character("/")], "/", .search,
                   "search: jump to rows matching an expression (as f; incremental; Enter keeps it, Esc cancels)",
                   hint: "/ search", views: [.requests, .entries]),
        KeyBinding("Filter, search and sort", [.character("n")], "n", .nextMatch, "next match"),
        KeyBinding("Filter, search and sort", [.character("N")], "N", .previousMatch, "previous match"),
        KeyBinding("Filter, search and sort", [.character("c")], "c", .nextDrillColumn,
                   "drill-down column (marked + in the header): URL/key host, method, outcome, status, tier"),
        KeyBinding("Filter, search and sort", [.character("+")], "+", .drillDown,
                   "add the selected row's value in the drill-down column to the filter"),
        KeyBinding("Filter, search and sort", [.character("o")], "o", .sortNext, "Entries: sort by the next column (TTL, size, hits, key)",
                   hint: "o sort", views: [.entries]),
        KeyBinding("Filter, search and sort", [.character("O")], "O", .sortReverse, "Entries: reverse the sort"),
        // Display
        KeyBinding("Display", [.character(" ")], "Space", .pause, "freeze the display (collection goes on); again to resume",
                   scope: .notReplay, hint: "Space pause"),
        KeyBinding("Display", [.left], "←", .rewind(.seek(seconds: -10)),
                   "freeze and step back 10 s through the recent live history (--rewind-events)", scope: .notReplay),
        KeyBinding("Display", [.right], "→", .rewind(.seek(seconds: 10)), "step forward 10 s while frozen or rewound (live: nothing newer)",
                   scope: .notReplay),
        KeyBinding("Display", [.character("F")], "F", .follow, "follow live again: resume and select the newest request"),
        KeyBinding("Display", [.character("t")], "t", .nextTheme, "next theme (default, light, solarized-dark, high-contrast, mono)"),
        // Commands
        KeyBinding("Commands", [.character("d")], "d", .purgeSelected,
                   "purge the selected entry (Requests: the selected request's key), or every marked key after a preview (y/n)",
                   hint: "d purge", views: [.requests, .entries]),
        KeyBinding("Commands", [.character("D")], "D", .purgeAll, "purge everything (asks y/n)"),
        KeyBinding("Commands", [.character("e")], "e", .purgeExpired, "purge every entry whose freshness has run out"),
        KeyBinding("Commands", [.character("r")], "r", .refresh,
                   "refresh the selected entry: conditional request, watch the 304 or 200 arrive",
                   hint: "r refresh", views: [.requests, .entries]),
        KeyBinding("Commands", [.character("R")], "R", .reload, "reload the selected entry unconditionally"),
        KeyBinding("Commands", [.character("m")], "m", .mark, "mark or unmark the selected row's key", hint: "m mark",
                   views: [.entries]),
        KeyBinding("Commands", [.character("M")], "M", .markMatching, "mark every row the view lists (all the filter matches)"),
        KeyBinding("Commands", [.character("U")], "U", .clearMarks, "clear every mark"),
        KeyBinding("Commands", [.character(":")], ":", .purgePrompt,
                   ":purge FILTER — purge the entries a filter matches (whole keys), after a preview and y/n"),
        // Replay
        KeyBinding("Replay", [.character(" ")], "Space", .replay(.togglePlaying), "play / pause", scope: .replay,
                   hint: "Space play"),
        KeyBinding("Replay", [.character("<")], "<", .replay(.slower), "half the speed (down to 1/16×)", scope: .replay),
        KeyBinding("Replay", [.character(">")], ">", .replay(.faster), "double the speed (64×, then as fast as possible)",
                   scope: .replay, hint: "< > speed"),
        KeyBinding("Replay", [.character("[")], "[", .replay(.stepBack), "step back one event", scope: .replay),
        KeyBinding("Replay", [.character("]")], "]", .replay(.stepForward), "step forward one event", scope: .replay),
        KeyBinding("Replay", [.left], "←", .replay(.seek(seconds: -10)), "seek back 10 s", scope: .replay),
        KeyBinding("Replay", [.right], "→", .replay(.seek(seconds: 10)), "seek forward 10 s", scope: .replay,
                   hint: "← → seek"),
        KeyBinding("Replay", (0...9).map { .character(Character(String($0))) }, "0–9",
                   .replay(.seekFraction(0)), "seek to 0 %–90 % of the session", scope: .replay),
        KeyBinding("Replay", [.character("$")], "$", .replay(.end), "seek to the end", scope: .replay),
        // Leave
        KeyBinding("Quit", [.character("q")], "q", .quitOrBack, "back; at the top, quit", hint: "q quit"),
        KeyBinding("Quit", [.character("Q")], "Q", .quit, "quit at once"),
    ]

    /// The action for `key`, or `nil` when the key does nothing.
    public static func action(for key: Key, replay: Bool) -> DashboardAction? {
        if replay, case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII {
            return .replay(.seekFraction(Double(digit) / 10))
        }
        let ordered = replay
            ? bindings.filter { $0.scope == .replay } + bindings.filter { $0.scope == .always }
            : bindings.filter { $0.applies(inReplay: false) }
        return ordered.first { $0.keys.contains(key) }?.action
    }

    /// The bindings that apply in a mode, in help order.
    public static func bindings(replay: Bool) -> [KeyBinding] {
        bindings.filter { $0.applies(inReplay: replay) }
    }

    /// The footer's hints for a view, most important first.
    static func hints(for view: DashboardView, replay: Bool, readOnly: Bool = false) -> [(key: String, word: String)] {
        let ordered = replay
            ? bindings.filter { $0.scope == .replay } + bindings.filter { $0.scope == .always }
            : bindings.filter { $0.applies(inReplay: false) }
        return ordered.compactMap { binding in
            guard let hint = binding.hint, binding.hintViews.isEmpty || binding.hintViews.contains(view) else { return nil }
            if replay || readOnly, binding.group == "Commands" { return nil }   // they cannot be sent
            guard let space = hint.lastIndex(of: " ") else { return (hint, "") }
            return (String(hint[..<space]), String(hint[hint.index(after: space)...]))
        }
    }
}
