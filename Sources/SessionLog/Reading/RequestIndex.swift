import CacheEvents
/// Finds the events of one request without a list per request: each event points back to the
/// previous event of its request (4 bytes an event), and a table holds each request's last.
/// Request IDs are normally small consecutive numbers, so that table is an array indexed by
/// ID; IDs too large for that go to a dictionary. For a million events the index takes about
/// 5 MB.
struct RequestIndex: Sendable {
    private var previous: [Int32]
    /// `lastByID[id]`: the position of request `id`'s latest event, or -1.
    private var lastByID: [Int32]
    private var lastBySparseID: [UInt64: Int32] = [:]
    /// Request IDs in order of first appearance.
    private(set) var order: [UInt64] = []

    init(_ events: [CacheEvent]) {
        previous = [Int32](repeating: -1, count: events.count)
        lastByID = [Int32](repeating: -1, count: min(events.count + 1, 1 << 26))
        for index in events.indices {
            guard let id = events[index].requestID else { continue }
            let before: Int32
            if id < UInt64(lastByID.count) {
                before = lastByID[Int(id)]
                lastByID[Int(id)] = Int32(index)
            } else {
                before = lastBySparseID.updateValue(Int32(index), forKey: id) ?? -1
            }
            if before >= 0 {
                previous[index] = before
            } else {
                order.append(id)
            }
        }
    }

    /// The positions of a request's events, in order.
    func indices(of id: UInt64) -> [Int] {
        let last = id < UInt64(lastByID.count) ? lastByID[Int(id)] : lastBySparseID[id] ?? -1
        var index = last
        var result: [Int] = []
        while index >= 0 {
            result.append(Int(index))
            index = previous[Int(index)]
        }
        return result.reversed()
    }
}
