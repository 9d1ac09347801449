public import TerminalUI

/// Turns the state into a frame: a pure function of state, terminal size, theme and "now"
/// (session seconds, for TTL countdowns and rates), so every view can be snapshot-tested
/// without a terminal.
///
/// ```swift
/// let grid = DashboardLayout.render(state, size: TerminalSize(columns: 120, rows: 40), theme: theme, now: 42)
/// let screen = grid.text   // what tests compare
/// ```
///
/// Below 80×20 the header shrinks to two lines without sparklines (compact layout); below 40×10
/// the frame says the terminal is too small. Under a theme without colour (`mono`) sparklines
/// are ASCII.
public enum DashboardLayout {
    /// The smallest terminal the dashboard draws in: 40×10.
    public static let minimumSize = ScreenGeometry.minimumSize

    /// The frame for `state` at `size`. While the display is paused, the clock stands still too
    /// (at the paused traffic's last event).
    public static func render(_ state: DashboardState, size: TerminalSize, theme: Theme, now: Double) -> Grid {
        let geometry = ScreenGeometry(size)
        guard geometry.fits else { return .terminalTooSmall(size: size, minimum: minimumSize) }
        let now = state.isPaused ? state.frozenClock : now
        var state = state
        state.interface.themeName = theme.name
        var grid = Grid(size: size)
        HeaderSection.draw(into: &grid, state: state, geometry: geometry, now: now)
        SparklineRow.draw(into: &grid, state: state, geometry: geometry, now: now, style: theme.sparklineStyle)
        // The view's rows, worked out once per frame (with a filter, every kept row is matched):
        // the tab bar counts them and the view draws them.
        let rows = ViewRows(state, geometry: geometry, now: now)
        TabBar.draw(into: &grid, state: state, geometry: geometry, rows: rows)
        switch state.interface.overlay {
        case .detail, .help:
            TextViews.draw(into: &grid, state: state, geometry: geometry, now: now, style: theme.sparklineStyle)
        case .confirmPurgeAll, .confirmPurge, nil:
            switch rows {
            case .requests(let window): RequestsView.draw(into: &grid, state: state, geometry: geometry, window: window)
            case .entries(let window): EntriesView.draw(into: &grid, state: state, geometry: geometry, window: window, now: now)
            case .stats: TextViews.draw(into: &grid, state: state, geometry: geometry, now: now, style: theme.sparklineStyle)
            }
            if let overlay = state.interface.overlay { ConfirmBox.draw(overlay, into: &grid, state: state, geometry: geometry) }
        }
        FooterSection.draw(into: &grid, state: state, geometry: geometry)
        return grid
    }
}
