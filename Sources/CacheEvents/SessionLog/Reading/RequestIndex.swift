/// Finds the events of one request without a list per request: each event points back to the
/// previous event of its request (4 bytes an event), and a table holds each request's last.
/// For a million events that is about 4 MB plus a few for the table.
struct RequestIndex: Sendable {
    private var previous: [Int32]
    private var last: [UInt64: Int32]
    /// Request IDs in order of first appearance.
    private(set) var order: [UInt64]

    init(_ events: [CacheEvent]) {
        previous = [Int32](repeating: -1, count: events.count)
        last = [:]
        order = []
        for index in events.indices {
            guard let id = events[index].requestID else { continue }
            if let before = last.updateValue(Int32(index), forKey: id) {
                previous[index] = before
            } else {
                order.append(id)
            }
        }
    }

    /// The positions of a request's events, in order.
    func indices(of id: UInt64) -> [Int] {
        guard var index = last[id] else { return [] }
        var result: [Int] = []
        while index >= 0 {
            result.append(Int(index))
            index = previous[Int(index)]
        }
        return result.reversed()
    }
}
