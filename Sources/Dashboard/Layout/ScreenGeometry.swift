import TerminalUI

/// Where each part of the screen goes at one terminal size. Key handling uses it too, so
/// `PgDn` moves exactly one screen of rows.
///
/// ```text
/// full (80×20 and up)          compact (40×10 up to there)
/// 0-2  header: figures         0-1  header: figures
/// 3    store gauges            2    tab bar
/// 4    sparklines              3…   view
/// 5    tab bar                 -2   key hints
/// 6…   view                    -1   status line
/// -2   key hints
/// -1   status line
/// ```
struct ScreenGeometry: Sendable, Hashable {
    /// The smallest terminal the dashboard draws in: 40×10. Smaller ones get "terminal too small".
    static let minimumSize = TerminalSize(columns: 40, rows: 10)

    let size: TerminalSize
    /// Whether the compact layout is used (narrower than 80 columns or fewer than 20 rows).
    let isCompact: Bool
    /// Rows of figures, gauges and sparklines at the top.
    let headerRows: Int
    /// The sparklines' row (requests/s and hit ratio over time); `nil` in the compact layout.
    let sparklineRow: Int?
    /// The tab bar's row.
    let tabRow: Int
    /// The first row of the view.
    let bodyTop: Int
    /// Rows the view has.
    let bodyRows: Int
    /// The key hints' row.
    let footerRow: Int
    /// The status line's row.
    let statusRow: Int

    init(_ size: TerminalSize) {
        self.size = size
        isCompact = size.columns < 80 || size.rows < 20
        headerRows = isCompact ? 2 : 5
        sparklineRow = isCompact ? nil : 4
        tabRow = headerRows
        bodyTop = tabRow + 1
        footerRow = max(bodyTop, size.rows - 2)
        statusRow = max(bodyTop, size.rows - 1)
        bodyRows = max(0, footerRow - bodyTop)
    }

    /// Whether the dashboard can be drawn at all.
    var fits: Bool { Grid.fits(size, minimum: Self.minimumSize) }

    /// Rows of a table view below its column headers.
    var listRows: Int { max(1, bodyRows - 1) }
}
