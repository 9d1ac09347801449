/// The rows the current view lists in one frame: a window of requests or of entries (with
/// the filter applied), or none for the Stats view.
enum ViewRows {
    case requests(RequestWindow)
    case entries(EntryWindow)
    case stats

    init(_ state: DashboardState, geometry: ScreenGeometry, now: Double) {
        switch state.interface.view {
        case .requests: self = .requests(RequestWindow(log: state.shown.requests, interface: state.interface, rows: geometry.listRows))
        case .entries:
            self = .entries(EntryWindow(table: state.shown.entries, interface: state.interface, rows: geometry.listRows, now: now))
        case .stats: self = .stats
        }
    }
}
