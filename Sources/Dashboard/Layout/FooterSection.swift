import TerminalUI

/// The two bottom rows: the keys that matter in the current view, and the status line (a
/// command's result, an error, the search prompt or the y/n question).
enum FooterSection {
    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry) {
        let width = geometry.size.columns
        grid.fill(x: 0, y: geometry.footerRow, width: width, height: 1, role: .footer)
        grid.write(Chunk.fit(hintChunks(state), width: width - 1, gapRole: .footer), x: 1, y: geometry.footerRow, maxWidth: width - 1)
        grid.write(statusLine(state), x: 0, y: geometry.statusRow, maxWidth: width)
    }

    static func hintChunks(_ state: DashboardState) -> [Chunk] {
        let interface = state.interface
        let pairs: [(key: String, word: String)]
        switch interface.overlay {
        case .detail: pairs = [("Esc", "back"), ("↑↓", "scroll"), ("d", "purge"), ("r", "refresh"), ("R", "reload"), ("?", "help")]
        case .help: pairs = [("Esc", "back"), ("↑↓", "scroll"), ("q", "back")]
        case .confirmPurgeAll: pairs = [("y", "purge everything"), ("n", "cancel")]
        case nil where interface.search.isEditing: pairs = [("Enter", "keep"), ("Esc", "cancel"), ("Backspace", "delete")]
        case nil: pairs = KeyTable.hints(for: interface.view, replay: interface.mode.isReplay)
        }
        return pairs.map { pair in
            Chunk([Span(pair.key, .key, attributes: .bold), Span(" " + pair.word, .footer)], short: [Span(pair.key, .key, attributes: .bold)])
        }
    }

    static func statusLine(_ state: DashboardState) -> [Span] {
        let search = state.interface.search
        if search.isEditing {
            return [Span("/", .key, attributes: .bold), Span(Escaped.text(search.query), .searchMatch), Span("▏", .key),
                    Span("  type to search · Enter keeps · Esc cancels", .dim)]
        }
        guard let status = state.interface.status else {
            return [Span("? help · t theme (\(Escaped.text(state.interface.themeName)))", .dim)]
        }
        let text = Escaped.text(status.text)
        switch status.kind {
        case .info: return [Span(text, .status)]
        case .success: return [Span("✓ ", .hit), Span(text, .status)]
        case .failure: return [Span("! ", .error, attributes: .bold), Span(text, .error)]
        }
    }
}
