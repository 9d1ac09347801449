public import CacheEvents

/// Keeps the events of whole requests that match a filter, in their original order: what a
/// filtered recording, summary or export keeps.
///
/// - A request's events (those with its `requestID` — its ``CacheEvent/requestKey`` in a fleet — and the `stored` event of its response,
///   which carries no ID but the request's cache key) are kept or dropped together, decided
///   when it finishes — so a kept request is never a fragment.
/// - Events that belong to no request (store statistics, entry snapshots, evictions, purges,
///   commands, dropped-event notes) are always kept: they describe the store, not a request.
/// - Order is kept: an event waits until every request before it is decided. At most
///   ``maximumHeld`` events wait; beyond that the oldest undecided request is decided as it
///   stands (its later events follow that decision), so memory stays bounded.
///
/// ```swift
/// var selection = RequestSelection(filter: try Filter("outcome:miss"))
/// var kept: [CacheEvent] = []
/// for event in events { kept += selection.select(event) }
/// kept += selection.finish()
/// ```
public struct RequestSelection: Sendable {
    /// The filter requests must match.
    public let filter: Filter
    /// The most events held back while waiting for a decision. Default 100,000.
    public let maximumHeld: Int

    private struct Held {
        var event: CacheEvent
        var request: UInt64?
    }

    /// Held events in order; `held[head...]` are still waiting.
    private var held: [Held] = []
    private var head = 0
    /// Requests not yet decided, by request ID.
    private var open: [UInt64: EventRequest] = [:]
    /// Decided requests whose events may still arrive or wait, by request ID.
    private var decided: [UInt64: Bool] = [:]

    /// A selection of the requests that match `filter`.
    public init(filter: Filter, maximumHeld: Int = 100_000) {
        self.filter = filter
        self.maximumHeld = max(1, maximumHeld)
    }

    /// Takes `event`; returns the events now decided and kept, in order (often none, or several).
    public mutating func select(_ event: CacheEvent) -> [CacheEvent] {
        var output: [CacheEvent] = []
        take(event, into: &output)
        return output
    }

    /// Takes `events` in order; returns the events now decided and kept.
    public mutating func select(_ events: [CacheEvent]) -> [CacheEvent] {
        var output: [CacheEvent] = []
        for event in events { take(event, into: &output) }
        return output
    }

    /// Decides every request still open as it stands and returns the rest of the kept events.
    public mutating func finish() -> [CacheEvent] {
        for (id, request) in open { decided[id] = filter.matches(request) }
        open = [:]
        var output: [CacheEvent] = []
        release(into: &output)
        return output
    }

    // MARK: Holding and releasing

    private mutating func take(_ event: CacheEvent, into output: inout [CacheEvent]) {
        let owner = self.owner(of: event)
        if let owner, decided[owner] == nil {
            open[owner, default: EventRequest()].apply(event.kind)
            if case .requestFinished = event.kind, let request = open.removeValue(forKey: owner) {
                decided[owner] = filter.matches(request)
            }
        }
        if head == held.count, owner.map({ decided[$0] != nil }) ?? true {
            // Nothing waits: decide at once.
            if owner.map({ decided[$0] == true }) ?? true { output.append(event) }
            return
        }
        held.append(Held(event: event, request: owner))
        if held.count - head > maximumHeld, let oldest = held[head].request, let request = open.removeValue(forKey: oldest) {
            decided[oldest] = filter.matches(request)
        }
        release(into: &output)
    }

    private func owner(of event: CacheEvent) -> UInt64? { Self.owner(of: event, open: open) }

    /// The request an event belongs to: its ID, or for `stored` the newest of the `open`
    /// requests for the same cache key.
    static func owner(of event: CacheEvent, open: [UInt64: EventRequest]) -> UInt64? {
        if let key = event.requestKey { return key }
        guard case .stored(let stored) = event.kind else { return nil }
        // Keys carry the instance in their top bits (``CacheEvent/requestKey``): the same instance's.
        let instance = UInt64(event.instance)
        return open.lazy.filter { $0.key >> 48 == instance && $0.value.cacheKey == stored.entry.key && $0.value.finished == nil }
            .map(\.key).max()
    }

    private mutating func release(into output: inout [CacheEvent]) {
        while head < held.count {
            let next = held[head]
            if let request = next.request {
                guard let keep = decided[request] else { break }
                if keep { output.append(next.event) }
            } else {
                output.append(next.event)
            }
            head += 1
        }
        if head == held.count {
            held.removeAll(keepingCapacity: true)
            head = 0
            forgetDecisions()
        } else if head > 4096, head * 2 > held.count {
            held.removeFirst(head)
            head = 0
        }
    }

    /// Decisions are kept for events that come after a request finished (rare); once nothing
    /// waits, a large table is cleared so memory stays bounded.
    private mutating func forgetDecisions() {
        if decided.count > 65_536 { decided = [:] }
    }
}
