import TrafficFilter
import TerminalUI

/// The two bottom rows: the keys that matter in the current view, and the status line (a
/// command's result, an error, the search prompt or the y/n question).
enum FooterSection {
    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry) {
        let width = geometry.size.columns
        grid.fill(x: 0, y: geometry.footerRow, width: width, height: 1, role: .footer)
        grid.write(fitHints(hintChunks(state), width: width - 1), x: 1, y: geometry.footerRow, maxWidth: width - 1)
        grid.write(statusLine(state, width: width), x: 0, y: geometry.statusRow, maxWidth: width)
    }

    /// Keys whose hint stays while others are left out: help (which lists every key), quit and
    /// back, and the read-only notice.
    static let essentialKeys: Set<String> = ["?", "q", "Esc", "read-only"]

    /// The hints on one line of `width`: whole hints (key and word) are left out from the least
    /// important up, keeping the essential ones, so no key loses its word while there is room
    /// for a useful set; only when even those do not fit do the words go (``Chunk/fit``).
    static func fitHints(_ chunks: [Chunk], width: Int) -> [Span] {
        var kept = chunks
        func needed() -> Int { kept.reduce(0) { $0 + $1.long.width } + 2 * max(0, kept.count - 1) }
        while needed() > width,
            let drop = kept.lastIndex(where: { !essentialKeys.contains($0.long.first?.text ?? "") }) {
            kept.remove(at: drop)
        }
        return Chunk.fit(kept, width: width, gapRole: .footer)
    }

    static func hintChunks(_ state: DashboardState) -> [Chunk] {
        let interface = state.interface
        let pairs: [(key: String, word: String)]
        switch interface.overlay {
        case .detail: pairs = [("Esc", "back"), ("↑↓", "scroll"), ("d", "purge"), ("r", "refresh"), ("R", "reload"), ("?", "help")]
        case .help: pairs = [("Esc", "back"), ("↑↓", "scroll"), ("q", "back")]
        case .confirmPurgeAll: pairs = [("y", "purge everything"), ("n", "cancel")]
        case .confirmPurge: pairs = [("y", "purge"), ("n", "cancel")]
        case nil where interface.prompt != nil:
            pairs = [("Enter", "apply"), ("Esc", "cancel"), ("Tab", "complete"), ("↑↓", "history")]
        case nil:
            pairs = (interface.readOnly ? [("read-only", "")] : [])
                + KeyTable.hints(for: interface.view, replay: interface.mode.isReplay, readOnly: interface.readOnly)
        }
        return pairs.map { pair in
            Chunk([Span(pair.key, .key, attributes: .bold), Span(" " + pair.word, .footer)], short: [Span(pair.key, .key, attributes: .bold)])
        }
    }

    static func statusLine(_ state: DashboardState, width: Int) -> [Span] {
        if let prompt = state.interface.prompt { return promptLine(prompt, width: width) }
        guard let status = state.interface.status else {
            return [Span("? help · t theme (\(Escaped.text(state.interface.themeName)))", .dim)]
        }
        // Escaped in full, backslashes too: a status line quotes the network's text as well as
        // the user's (`\e[2J` from an origin must not look like an escaped ESC).
        let text = Escaped.text(status.text)
        switch status.kind {
        case .info: return [Span(text, .status)]
        case .success: return [Span("✓ ", .hit), Span(text, .status)]
        case .failure: return [Span("! ", .error, attributes: .bold), Span(text, .error)]
        }
    }

    /// `f outcome:miss▏  hint`, or with a parse error the character at its column marked and
    /// `✗ column N: expected …` — shown before anything is applied.
    static func promptLine(_ prompt: FilterPrompt, width: Int) -> [Span] {
        // The choices Tab just found come first: a half-typed word (`outcome:m`) never parses.
        let message: Span =
            if !prompt.candidates.isEmpty {
                Span("  Tab: " + prompt.candidates.joined(separator: " "), .dim)
            } else if let error = prompt.error {
                Span("  ✗ " + Escaped.text(error.description), .error)
            } else {
                Span("  " + hint(for: prompt.purpose), .dim)
            }
        // The text's end (where the cursor is) and the message stay in sight: a text too long
        // for the line shows its tail after `…`, in the room the message leaves — or half the
        // line, when the message wants more (it is cut at the edge then, its start in sight).
        let room = width - TextWidth.of(prompt.purpose.sigil) - 1  // the cursor
        let messageWidth = TextWidth.of(message.text)
        // Each character as shown and its width, worked out once.
        let shownCharacters = prompt.text.map { Escaped.typed(String($0)) }
        let widths = shownCharacters.map(TextWidth.of)
        var first = 0
        if widths.reduce(0, +) + messageWidth > room, widths.count > 1 {
            let textRoom = max(room - messageWidth, room / 2) - 1  // the `…`
            var kept = 0
            first = widths.count
            while first > 0, kept + widths[first - 1] <= textRoom {
                first -= 1
                kept += widths[first]
            }
        }
        var spans = [Span(prompt.purpose.sigil, .key, attributes: .bold)]
        if first > 0 { spans.append(Span("…", .dim)) }
        func shown(_ range: Range<Int>) -> String { shownCharacters[range].joined() }
        let count = shownCharacters.count
        if let error = prompt.error, error.column <= count, error.column - 1 >= first {
            let at = error.column - 1
            spans += [Span(shown(first..<at), .searchMatch),
                      Span(shown(at..<(at + 1)), .error, attributes: [.bold, .underline]),
                      Span(shown((at + 1)..<count), .searchMatch)]
        } else {
            spans.append(Span(shown(first..<count), .searchMatch))
        }
        spans.append(Span("▏", .key))
        spans.append(message)
        return spans.filter { !$0.text.isEmpty }
    }

    /// What the prompt's line says while its text parses.
    static func hint(for purpose: FilterPrompt.Purpose) -> String {
        switch purpose {
        case .filter: "type an expression to filter (docs/filter.md) · Enter applies · Esc cancels"
        case .search: "type an expression to search · Enter applies · Esc cancels"
        case .purge: "purge FILTER or purge tag:NAME · Enter previews what it removes · Esc cancels"
        }
    }
}
