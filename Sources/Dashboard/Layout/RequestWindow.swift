/// Which requests the Requests view shows and which one is selected, for a number of rows:
/// the one place that turns the interface's serials (or "follow the newest") into rows, used
/// by both layout and key handling so they always agree. With a filter, only matching
/// requests are rows.
struct RequestWindow: Sendable {
    /// The listed requests (all, or the filter's).
    let rows: RequestRows
    /// The selected row's position (`nil` when there are no rows).
    let selectedPosition: Int?
    /// The top row's position.
    let topPosition: Int?
    /// The serials shown, top to bottom (newest first).
    let serials: [Int]

    init(log: RequestLog, interface: InterfaceState, rows visibleRows: Int) {
        let rows = RequestRows(log: log, filter: interface.filter)
        self.rows = rows
        guard let newest = rows.newestPosition, visibleRows > 0 else {
            (selectedPosition, topPosition, serials) = (nil, nil, [])
            return
        }
        let selected = interface.requestSelection.flatMap(rows.position(nearest:)) ?? newest
        var top = interface.requestTop.flatMap(rows.position(nearest:)) ?? newest
        if selected > top { top = selected }
        if selected < top - visibleRows + 1 { top = selected + visibleRows - 1 }
        top = min(top, newest)
        selectedPosition = selected
        topPosition = top
        serials = stride(from: top, through: max(0, top - visibleRows + 1), by: -1).map(rows.serial(at:))
    }

    /// The selected serial (`nil` when there are no rows).
    var selected: Int? { selectedPosition.map(rows.serial(at:)) }

    /// The top row's serial.
    var top: Int? { topPosition.map(rows.serial(at:)) }

    /// How many listed requests are newer than the top row (hidden above it).
    var newerAbove: Int {
        guard let topPosition, let newest = rows.newestPosition else { return 0 }
        return newest - topPosition
    }
}
