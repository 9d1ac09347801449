import TerminalUI

/// The views made of text lines rather than rows — Stats, the help and the detail pane: their
/// lines (built for a width), a title, and scrolling.
enum TextViews {
    /// The lines of whichever text view is showing (empty for a table view). Sparklines are
    /// drawn in `style`; the Stats view's histogram takes about a third of the view's rows.
    static func lines(for state: DashboardState, geometry: ScreenGeometry, now: Double, style: Grid.BarStyle = .blocks) -> [[Span]] {
        let width = geometry.size.columns
        switch state.interface.overlay {
        case .detail(let target): return DetailContent.lines(target, state: state, width: width, now: now)
        case .help: return HelpContent.lines(state: state, width: width)
        case .confirmPurgeAll, .confirmPurge, nil:
            guard state.interface.view == .stats else { return [] }
            return InstanceBreakdown.lines(state.shown, roster: state.interface.instances, width: width)
                + StatsContent.lines(state.shown, width: width, now: now, style: style, chartRows: chartRows(geometry))
        }
    }

    /// Rows of the Stats view's histogram: a third of the view, 4 to 16.
    static func chartRows(_ geometry: ScreenGeometry) -> Int { min(16, max(4, geometry.bodyRows / 3)) }

    /// The title row of the text view showing.
    static func title(for state: DashboardState) -> String {
        switch state.interface.overlay {
        case .detail(.request): "Request details"
        case .detail(.entry): "Entry details"
        case .help: "Help: keys and figures"
        case .confirmPurgeAll, .confirmPurge, nil: "Stats: latency, ratios, expiry, misses, evictions and every figure"
        }
    }

    /// Draws the text view in the body area: a title row, then the lines from the scroll
    /// position (clamped so the last line stays on screen).
    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, now: Double, style: Grid.BarStyle) {
        let width = geometry.size.columns
        let lines = lines(for: state, geometry: geometry, now: now, style: style)
        let visible = max(0, geometry.bodyRows - 1)
        let maximumScroll = max(0, lines.count - visible)
        let scroll = min(max(0, state.interface.scroll), maximumScroll)
        grid.fill(x: 0, y: geometry.bodyTop, width: width, height: 1, role: .header)
        let hint = state.interface.overlay == nil ? "↑↓ scroll" : "↑↓ scroll · Esc back"
        let position = lines.count > visible ? "  \(scroll + 1)–\(min(lines.count, scroll + visible)) of \(lines.count)" : ""
        let right = hint + position + " "
        let used = grid.write(" " + title(for: state), x: 0, y: geometry.bodyTop, role: .header, attributes: .bold,
                              maxWidth: width, overflow: .ellipsis)
        if used + TextWidth.of(right) + 1 <= width {
            grid.write(right, x: width - TextWidth.of(right), y: geometry.bodyTop, role: .header)
        }
        for row in 0..<visible {
            let index = scroll + row
            guard index < lines.count else { break }
            grid.write(lines[index], x: 0, y: geometry.bodyTop + 1 + row, maxWidth: width)
        }
    }

    /// Breaks a line of spans into lines at most `width` wide, at spaces where it can (not
    /// inside the first `indent` columns, where labels are padded) and between graphemes where
    /// it must (header values often have no spaces). Continuation lines start with `indent`
    /// spaces.
    static func wrap(_ spans: [Span], width: Int, indent: Int) -> [[Span]] {
        guard width > indent + 1, spans.width > width else { return [spans] }
        var cells: [(character: Character, width: Int, role: ThemeRole, attributes: CellAttributes)] = []
        for span in spans {
            for character in span.text {
                cells.append((character, DisplayWidth.of(character), span.role, span.attributes))
            }
        }
        var lines: [[Span]] = []
        var start = 0
        var isFirst = true
        while start < cells.count {
            var column = isFirst ? 0 : indent
            var end = start
            var lastSpace: Int?
            while end < cells.count, column + cells[end].width <= width {
                if cells[end].character == " ", column > indent { lastSpace = end }
                column += cells[end].width
                end += 1
            }
            var next = end
            if end < cells.count, let lastSpace, lastSpace > start {
                end = lastSpace
                next = lastSpace + 1
            }
            var line: [Span] = isFirst ? [] : [Span(String(repeating: " ", count: indent))]
            for cell in cells[start..<max(start + 1, end)] {
                if let last = line.last, last.role == cell.role, last.attributes == cell.attributes {
                    line[line.count - 1].text.append(cell.character)
                } else {
                    line.append(Span(String(cell.character), cell.role, attributes: cell.attributes))
                }
            }
            lines.append(line)
            start = max(start + 1, next)
            while start < cells.count, cells[start].character == " " { start += 1 }
            isFirst = false
        }
        return lines
    }

    /// A heading line.
    static func heading(_ text: String) -> [Span] { [Span(text, .title, attributes: .bold)] }

    /// `label` padded to `labelWidth`, then `value` in `valueRole`, wrapped to `width`.
    static func field(_ label: String, _ value: [Span], labelWidth: Int, width: Int) -> [[Span]] {
        let padded = "  " + label + String(repeating: " ", count: max(1, labelWidth - TextWidth.of(label) - 2))
        return wrap([Span(padded, .dim)] + value, width: width, indent: max(labelWidth, 4))
    }
}
