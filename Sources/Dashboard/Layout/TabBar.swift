import TrafficFilter
import TerminalUI

/// The row naming the views, with the current one marked (bold, underlined and in brackets,
/// so it shows without colour) and, on the right, what the view is doing.
enum TabBar {
    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, rows: ViewRows) {
        let y = geometry.tabRow
        let width = geometry.size.columns
        grid.fill(x: 0, y: y, width: width, height: 1, role: .border, character: "─")
        var x = 0
        for view in DashboardView.allCases {
            let current = view == state.interface.view
            let title = geometry.isCompact && width < 60 ? String(view.title.prefix(3)) : view.title
            let text = current ? "[\(view.rawValue) \(title)]" : " \(view.rawValue) \(title) "
            x += grid.write(text, x: x, y: y, role: current ? .title : .dim, attributes: current ? [.bold, .underline] : [])
            x += 1
        }
        var parts = self.info(state, rows: rows)
        var info = joined(parts)
        while info.width > width - x - 3, !parts.isEmpty {
            parts.removeLast()   // the narrower the terminal, the fewer items
            info = joined(parts)
        }
        let infoWidth = info.width
        if infoWidth > 0, x + infoWidth + 3 <= width {
            grid.write([Span(" ", .dim)] + info + [Span(" ", .dim)], x: width - infoWidth - 3, y: y, maxWidth: infoWidth + 2)
        }
    }

    /// What the view is doing: how many rows, following or not, sort, marks, search.
    private static func joined(_ parts: [[Span]]) -> [Span] {
        var spans: [Span] = []
        for part in parts {
            if !spans.isEmpty { spans.append(Span(" · ", .dim)) }
            spans += part
        }
        return spans
    }

    /// The items, most important first.
    static func info(_ state: DashboardState, rows: ViewRows) -> [[Span]] {
        let model = state.shown
        var parts: [[Span]] = []
        switch rows {
        case .requests(let window):
            let newer = window.newerAbove
            parts.append([Span(rowCount(window.rows.count, of: model.requests.count, state: state) + " rows", .dim)])
            if state.isPaused {
                parts.append([Span("paused", .warning)])
            } else if newer > 0 {
                parts.append([Span("\(Format.count(newer)) newer ↑ F follows", .warning)])
            } else if state.interface.requestSelection != nil {
                parts.append([Span("F follows", .dim)])
            } else {
                parts.append([Span("following", .dim)])
            }
        case .entries(let window):
            parts.append([Span(rowCount(window.rows.count, of: model.entries.count, state: state) + " entries", .dim)])
            let sort = state.interface.sort
            parts.append([Span("by \(sort.column.title)\(sort.reversed ? " reversed" : "")", .dim)])
        case .stats:
            parts.append([Span("definitions of every figure", .dim)])
        }
        if !state.interface.marks.isEmpty { parts.append([Span("\(state.interface.marks.count) marked", .marked)]) }
        if let search = state.interface.search.filter, state.interface.prompt == nil {
            parts.append([Span("/", .key), Span(Escaped.typed(search.text), .searchMatch)])
        }
        return parts
    }

    /// `42` without a filter, `7 of 42` with one.
    private static func rowCount(_ shown: Int, of total: Int, state: DashboardState) -> String {
        state.interface.filter == nil ? Format.count(total) : "\(Format.count(shown)) of \(Format.count(total))"
    }
}
