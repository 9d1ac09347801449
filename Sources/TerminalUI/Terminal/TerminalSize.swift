/// The size of a terminal (or a grid) in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    /// Columns (ncurses' `COLS`).
    public var columns: Int
    /// Rows (ncurses' `LINES`).
    public var rows: Int

    /// Creates a size; negative values are treated as zero.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// `"80×24"`.
    public var description: String { "\(columns)×\(rows)" }
}
