/// A rectangle of ``Cell``s that layout code draws into and the painter copies to the screen.
///
/// Layout is pure: it builds a `Grid` at a given size, and tests compare ``text`` and
/// ``roleMask(_:other:)`` with multi-line string literals. Only ``Terminal`` turns a grid into
/// curses calls.
///
/// ```swift
/// var grid = Grid(width: 20, height: 2)
/// grid.write("HIT ✓ 東京", x: 0, y: 0, role: .hit)
/// grid.text        // "HIT ✓ 東京\n"
/// grid.roleMask([.hit: "h"])   // "hhhhhhhhhh\n"
/// ```
public struct Grid: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row (`cells[y * width + x]`).
    public private(set) var cells: [Cell]

    /// Creates a grid filled with `fill` (a blank background cell by default). Negative sizes
    /// are treated as zero.
    public init(width: Int, height: Int, fill: Cell = .blank()) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// Creates a grid the size of a terminal.
    public init(size: TerminalSize, fill: Cell = .blank()) {
        self.init(width: size.columns, height: size.rows, fill: fill)
    }

    /// The size of this grid as a ``TerminalSize``.
    public var size: TerminalSize { TerminalSize(columns: width, rows: height) }

    /// The cell at column `x`, row `y`, or `nil` outside the grid.
    public subscript(x: Int, y: Int) -> Cell? {
        guard contains(x: x, y: y) else { return nil }
        return cells[y * width + x]
    }

    /// The cells of row `y` (empty outside the grid).
    public func row(_ y: Int) -> ArraySlice<Cell> {
        guard y >= 0, y < height else { return [] }
        return cells[(y * width)..<((y + 1) * width)]
    }

    /// Whether (`x`, `y`) lies inside the grid.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    // MARK: Filling and copying

    /// Fills a rectangle (clipped to the grid) with `character` in `role`. A wide grapheme cut
    /// by the rectangle's edge is blanked rather than left half-drawn.
    public mutating func fill(
        x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
        role: ThemeRole, character: Character = " ", attributes: CellAttributes = []
    ) {
        let columns = max(0, x)..<min(self.width, x + (width ?? self.width))
        let rows = max(0, y)..<min(self.height, y + (height ?? self.height))
        for row in rows {
            for column in columns {
                put(Cell(character, role: role, attributes: attributes), x: column, y: row, width: 1)
            }
        }
    }

    /// Copies `other` with its top-left corner at (`x`, `y`), clipping at the edges.
    public mutating func draw(_ other: Grid, x: Int, y: Int) {
        for row in 0..<other.height {
            for column in 0..<other.width where contains(x: x + column, y: y + row) {
                let cell = other.cells[row * other.width + column]
                if cell.isContinuation { continue }
                let cellWidth = cell.width
                if cellWidth == 2, !contains(x: x + column + 1, y: y + row) {
                    put(.blank(cell.role), x: x + column, y: y + row, width: 1)
                } else {
                    put(cell, x: x + column, y: y + row, width: cellWidth)
                }
            }
        }
    }

    // MARK: Cell placement

    /// Stores `cell` at (`x`, `y`) taking `width` columns (1 or 2), first blanking the other
    /// half of any wide grapheme it overlaps, so no grapheme is ever left split.
    mutating func put(_ cell: Cell, x: Int, y: Int, width: Int) {
        guard contains(x: x, y: y) else { return }
        breakWideOverlap(x: x, y: y)
        var stored = cell
        stored.isContinuation = false
        cells[y * self.width + x] = stored
        if width == 2, contains(x: x + 1, y: y) {
            breakWideOverlap(x: x + 1, y: y)
            cells[y * self.width + x + 1] = Cell(" ", role: cell.role, attributes: cell.attributes, isContinuation: true)
        }
    }

    private mutating func breakWideOverlap(x: Int, y: Int) {
        let index = y * width + x
        let existing = cells[index]
        if existing.isContinuation, x > 0 {
            cells[index - 1] = .blank(cells[index - 1].role)
            cells[index] = .blank(existing.role)
        } else if !existing.isContinuation, x + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = .blank(cells[index + 1].role)
        }
    }
}
