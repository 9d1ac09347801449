public import CacheEvents
import HTTPCaching

/// The figures of one run that a what-if compares: the traffic counters of the session's
/// summary and how many requests reached the origin.
public struct WhatIfRun: Sendable, Hashable {
    /// Requests by outcome, hit ratios, bytes, evictions (as `replay --summary` counts them).
    public var counters = TrafficCounters()
    /// Requests sent to the origin: full fetches and revalidations, the cache's own
    /// background refreshes included, coalesced followers (which sent nothing) excluded.
    public var originRequests = 0

    /// Folds `events` (a recorded log's or a simulation's).
    public init(folding events: [CacheEvent]) {
        var revalidating: Set<UInt64> = []
        var coalesced: Set<UInt64> = []
        for event in events {
            counters.apply(event)
            switch event.kind {
            case .revalidationSent:
                originRequests += 1
                if let requestID = event.requestID { revalidating.insert(requestID) }
            case .coalesced:
                if let requestID = event.requestID { coalesced.insert(requestID) }
            case .served(let served):
                guard served.source == .network, let requestID = event.requestID,
                    !revalidating.contains(requestID), !coalesced.contains(requestID)
                else { continue }
                originRequests += 1
            default:
                continue
            }
        }
    }
}
