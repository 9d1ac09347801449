import TrafficFilter

/// The requests a view lists, oldest first, addressed by **position** (0 = oldest): every
/// kept request, or only those a filter matches. Windows and key handling move by positions
/// and store serials, so a selection stays on its request while the filter hides others.
struct RequestRows: Sendable {
    /// The matching serials, ascending; `nil` when every kept serial is listed.
    private let matching: [Int]?
    private let oldest: Int
    /// How many requests are listed.
    let count: Int

    init(log: RequestLog, filter: Filter?) {
        guard let newest = log.newestSerial, let oldest = log.oldestSerial else {
            (matching, self.oldest, count) = (nil, 0, 0)
            return
        }
        self.oldest = oldest
        if let filter {
            let serials = log.serials(matching: filter)
            matching = serials
            count = serials.count
        } else {
            matching = nil
            count = newest - oldest + 1
        }
    }

    /// The serial at `position` (0 ..< count).
    func serial(at position: Int) -> Int {
        matching.map { $0[position] } ?? oldest + position
    }

    /// The newest position, or `nil` when nothing is listed.
    var newestPosition: Int? { count > 0 ? count - 1 : nil }

    /// The position of `serial`, or of the nearest older listed request (the oldest when
    /// none is older); `nil` when nothing is listed.
    func position(nearest serial: Int) -> Int? {
        guard count > 0 else { return nil }
        guard let matching else { return min(max(serial - oldest, 0), count - 1) }
        // The last matching serial ≤ serial (binary search).
        var (low, high) = (0, matching.count)
        while low < high {
            let middle = (low + high) / 2
            if matching[middle] <= serial { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }
}
