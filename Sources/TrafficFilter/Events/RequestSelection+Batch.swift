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
        let noOwner = UInt64.max  // never a request ID: an event stores "none" as `.max`
        var owners: [UInt64] = []
        owners.reserveCapacity(events.count)
        var open: [UInt64: EventRequest] = [:]
        var decided: [UInt64: Bool] = [:]
        for event in events {
            guard let owner = owner(of: event, open: open) else {
                owners.append(noOwner)
                continue
            }
            owners.append(owner)
            guard decided[owner] == nil else { continue }
            open[owner, default: EventRequest()].apply(event.kind)
            if case .requestFinished = event.kind, let request = open.removeValue(forKey: owner) {
                decided[owner] = filter.matches(request)
            }
        }
        for (id, request) in open { decided[id] = filter.matches(request) }
        var kept: [CacheEvent] = []
        kept.reserveCapacity(events.count)
        for (event, owner) in zip(events, owners) where owner == noOwner || decided[owner] == true {
            kept.append(event)
        }
        return kept
    }
}
