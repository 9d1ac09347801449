import TerminalUI

/// One column of a table view: its title, width and how readily it is given up on a narrow
/// terminal.
struct TableColumn: Sendable {
    enum Alignment: Sendable { case left, right }

    /// Identifies the column to the code that fills its cells.
    var id: String
    /// The header text.
    var title: String
    /// The width it needs (a flexible column's minimum).
    var width: Int
    /// The share of spare columns it takes (0: fixed width).
    var flex = 0
    /// 0 is never dropped; higher numbers are dropped first when the terminal is narrow.
    var priority = 0
    var alignment: Alignment = .left
}

/// Columns placed at their final positions for one width.
struct TableLayout: Sendable {
    struct Placed: Sendable {
        var column: TableColumn
        var x: Int
        var width: Int
    }

    /// The columns that fit, left to right.
    let placed: [Placed]
    /// The width the table fills.
    let width: Int

    /// Fits `columns` (in display order) into `width` columns, one space apart, after a
    /// `gutter` of columns for marks: drops the columns with the highest priority numbers until
    /// the rest fit, then shares out the spare columns among the flexible ones.
    init(_ columns: [TableColumn], width: Int, gutter: Int = 1) {
        self.width = width
        var kept = columns
        func needed(_ columns: [TableColumn]) -> Int {
            gutter + columns.reduce(0) { $0 + $1.width } + max(0, columns.count - 1)
        }
        while needed(kept) > width, let drop = kept.indices.filter({ kept[$0].priority > 0 }).max(by: { kept[$0].priority < kept[$1].priority }) {
            kept.remove(at: drop)
        }
        var widths = kept.map(\.width)
        var spare = width - needed(kept)
        let totalFlex = kept.reduce(0) { $0 + $1.flex }
        if spare > 0, totalFlex > 0 {
            var given = 0
            for index in kept.indices where kept[index].flex > 0 {
                let share = spare * kept[index].flex / totalFlex
                widths[index] += share
                given += share
            }
            if let last = kept.indices.last(where: { kept[$0].flex > 0 }) { widths[last] += spare - given }
            spare = 0
        } else if spare < 0, let flexible = kept.indices.first(where: { kept[$0].flex > 0 }) {
            widths[flexible] = max(1, widths[flexible] + spare)   // still too wide: squeeze the first flexible column
        }
        var x = gutter
        var placed: [Placed] = []
        for index in kept.indices {
            placed.append(Placed(column: kept[index], x: x, width: widths[index]))
            x += widths[index] + 1
        }
        self.placed = placed
    }

    /// Whether a column with this id is shown.
    func shows(_ id: String) -> Bool { placed.contains { $0.column.id == id } }

    /// Draws the header row at `y`.
    /// Draws the column titles; the `sorted` column gets ▲ or ▼, the `drill` column a leading `+`.
    func drawHeader(into grid: inout Grid, y: Int, x: Int = 0, sorted: (id: String, descending: Bool)? = nil, drill: String? = nil) {
        grid.fill(x: x, y: y, width: width, height: 1, role: .header)
        for place in placed {
            var title = place.column.title
            if drill == place.column.id {
                // In the space before the column when there is one, so a title that fills its
                // column is not cut (`+ME…`).
                if place.x > 0 {
                    grid.write([Span("+", .header)], x: x + place.x - 1, y: y, maxWidth: 1)
                } else {
                    title = "+" + title
                }
            }
            if let sorted, sorted.id == place.column.id { title += sorted.descending ? "▼" : "▲" }
            drawCell([Span(title, .header)], place: place, into: &grid, y: y, x: x)
        }
    }

    /// Draws one row: `cells` gives each shown column's spans; `role` overrides every span's
    /// role (the selection), and `gutter` is drawn in the first column (a mark).
    func drawRow(
        into grid: inout Grid, y: Int, x: Int = 0, cells: (String) -> [Span], role: ThemeRole? = nil, gutter: Span? = nil
    ) {
        if let role { grid.fill(x: x, y: y, width: width, height: 1, role: role) }
        if let gutter { grid.write([role.map { Span(gutter.text, $0) } ?? gutter], x: x, y: y, maxWidth: 1) }
        for place in placed {
            let spans = cells(place.column.id)
            drawCell(role.map { spans.recolored($0) } ?? spans, place: place, into: &grid, y: y, x: x)
        }
    }

    private func drawCell(_ spans: [Span], place: Placed, into grid: inout Grid, y: Int, x: Int) {
        let contentWidth = spans.width
        var left = x + place.x
        if place.column.alignment == .right, contentWidth < place.width { left += place.width - contentWidth }
        grid.write(spans, x: left, y: y, maxWidth: place.width - (left - x - place.x))
    }
}
