/// Which requests the Requests view shows and which one is selected, for a number of rows:
/// the one place that turns the interface's serials (or "follow the newest") into rows, used
/// by both layout and key handling so they always agree.
struct RequestWindow: Sendable, Hashable {
    /// The selected serial (`nil` when there are no requests).
    let selected: Int?
    /// The top row's serial.
    let top: Int?
    /// The serials shown, top to bottom (newest first).
    let serials: [Int]

    init(log: RequestLog, interface: InterfaceState, rows: Int) {
        guard let newest = log.newestSerial, let oldest = log.oldestSerial, rows > 0 else {
            (selected, top, serials) = (nil, nil, [])
            return
        }
        let selected = log.clamp(interface.requestSelection ?? newest) ?? newest
        var top = log.clamp(interface.requestTop ?? newest) ?? newest
        if selected > top { top = selected }
        if selected < top - rows + 1 { top = selected + rows - 1 }
        top = min(top, newest)
        self.selected = selected
        self.top = top
        serials = Array(stride(from: top, through: max(oldest, top - rows + 1), by: -1))
    }

    /// How many requests are newer than the top row (hidden above it).
    func newerAbove(in log: RequestLog) -> Int {
        guard let top, let newest = log.newestSerial else { return 0 }
        return newest - top
    }
}
