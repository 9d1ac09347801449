public import CacheEvents

extension RequestSelection {
    /// Every event of `events` that belongs to a matching request or to no request, in order:
    /// what feeding them one by one to a selection and finishing keeps, when the whole
    /// session is at hand (`replay --summary --filter`, `export --filter`) — except that,
    /// with no queue to bound, no request is decided before its end because ``maximumHeld``
    /// events wait, and no decision is forgotten.
    ///
    /// Two passes instead of a queue: the first assembles and decides each request and notes
    /// each event's owner, the second keeps the events of the requests that match — each
    /// event is copied once, and nothing waits for an earlier request's decision.
    public static func select(_ events: [CacheEvent], filter: Filter) -> [CacheEvent] {
        let owners = BatchOwners(events, filter: filter)
        var kept: [CacheEvent] = []
        kept.reserveCapacity(events.count)
        events.withUnsafeBufferPointer { events in
            for index in events.indices where owners.keeps(index) { kept.append(events[index]) }
        }
        return kept
    }
}

/// The first pass of ``RequestSelection/select(_:filter:)``: each event's owner as a dense
/// request number and each request's verdict, so the second pass reads two arrays instead of
/// hashing a request ID per event. A request is matched where its events lie
/// (``IndexedRequest``), never copied out of them.
private struct BatchOwners {
    /// The dense number of each event's request, or `-1` for an event of no request.
    private var owners: [Int32] = []
    /// The verdict of each request, by dense number (final once it is decided).
    private var verdicts: [Bool] = []
    /// Where each undecided request is in `open`, by dense number; `-1` once decided.
    private var slotOfNumber: [Int32] = []
    /// Dense number of every request seen, by ID: IDs are normally small consecutive numbers,
    /// so an array indexed by ID (as `RequestIndex` does); larger ones in a dictionary.
    private var numberByID: [Int32]
    private var numberBySparseID: [UInt64: Int32] = [:]
    /// Requests not yet decided, in reusable slots (in flight at once: few).
    private var open: [Open?] = []
    private var freeSlots: [Int32] = []
    private let filter: Filter

    /// A request still being assembled.
    private struct Open {
        var id: UInt64
        var number: Int32
        /// Its primary cache key, once its start is seen (a `stored` event names only the key).
        var cacheKey = ""
        var request: IndexedRequest
    }

    init(_ events: [CacheEvent], filter: Filter) {
        self.filter = filter
        numberByID = [Int32](repeating: -1, count: min(events.count + 1, 1 << 26))
        owners.reserveCapacity(events.count)
        events.withUnsafeBufferPointer { events in
            for event in events.indices { take(events, event) }
            for slot in open.indices where open[slot] != nil { close(slot) }
        }
    }

    /// Whether the event at `index` is kept: it belongs to no request or to a matching one.
    func keeps(_ index: Int) -> Bool {
        let owner = owners[index]
        return owner < 0 || verdicts[Int(owner)]
    }

    private mutating func take(_ events: UnsafeBufferPointer<CacheEvent>, _ index: Int) {
        guard let number = owner(events, index) else {
            owners.append(-1)
            return
        }
        owners.append(number)
        let slot = Int(slotOfNumber[Int(number)])
        guard slot >= 0 else { return }  // decided: later events do not change the verdict
        let position = Int32(index)
        switch events[index].kind {
        case .requestStarted(let started):
            open[slot]?.request.startedAt = position
            open[slot]?.cacheKey = started.cacheKey
        case .lookup: open[slot]?.request.lookupAt = position
        case .revalidationSent: open[slot]?.request.revalidationAt = position
        case .served: open[slot]?.request.servedAt = position
        case .requestFinished:
            open[slot]?.request.finishedAt = position
            close(slot)
        default: break
        }
    }

    /// The dense number of the request the event at `index` belongs to: its ID's (numbering a
    /// new ID), or for `stored` the newest unfinished request for the same cache key's.
    private mutating func owner(_ events: UnsafeBufferPointer<CacheEvent>, _ index: Int) -> Int32? {
        if let id = events[index].requestKey {
            let dense = id < UInt64(numberByID.count)
            let known = dense ? numberByID[Int(id)] : numberBySparseID[id] ?? -1
            if known >= 0 { return known }
            let number = Int32(verdicts.count)
            if dense { numberByID[Int(id)] = number } else { numberBySparseID[id] = number }
            verdicts.append(false)
            let opened = Open(id: id, number: number, request: IndexedRequest(events: events))
            if let free = freeSlots.popLast() {
                open[Int(free)] = opened
                slotOfNumber.append(free)
            } else {
                slotOfNumber.append(Int32(open.count))
                open.append(opened)
            }
            return number
        }
        guard case .stored(let stored) = events[index].kind else { return nil }
        var newest: Open?
        // Keys carry the instance in their top bits (``CacheEvent/requestKey``): the same instance's.
        let instance = UInt64(events[index].instance)
        for case let candidate? in open where candidate.id >> 48 == instance && candidate.cacheKey == stored.entry.key {
            if newest.map({ candidate.id > $0.id }) ?? true { newest = candidate }
        }
        return newest?.number
    }

    /// Decides the open request at `slot` and frees the slot.
    private mutating func close(_ slot: Int) {
        guard let closing = open[slot].take() else { return }
        verdicts[Int(closing.number)] = filter.matches(closing.request)
        slotOfNumber[Int(closing.number)] = -1
        freeSlots.append(Int32(slot))
    }
}
