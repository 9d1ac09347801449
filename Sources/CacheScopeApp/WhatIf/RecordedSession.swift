import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import SessionLog

/// A session log's requests as exchanges to simulate: each request the log's client was asked
/// for, with its recorded policy and the origin's answer to it as the log shows it — the
/// network response it served, the 304 that freshened its entry, or the failure a stale
/// response stood in for (`stale-if-error`, recorded on `served` since CacheScope records it).
struct RecordedSession {
    /// The requests in the order they started (the cache's own background refreshes and
    /// dashboard refreshes left out: the simulated cache makes its own).
    var exchanges: [SimulatedExchange]
    /// The recorded outcome of each exchange (`nil` when it never finished).
    var outcomes: [CacheOutcome?]
    /// The recording's start: event times count from it.
    var start: Date
    /// The store's figures as first recorded (capacities), if the log has them.
    var store: StoreStats?
    /// Whether the recorded store had a disk tier: something was stored on disk or disk space
    /// was in use (`storeStats` reports a disk capacity even for a store without a directory).
    var hadDiskTier = false
    /// Commands in the log (purges, refreshes), which the simulation does not repeat.
    var commands: Int

    /// Recorded exchanges whose outcomes are still to be found (a HAR capture's).
    init(exchanges: [SimulatedExchange], start: Date) {
        self.exchanges = exchanges
        self.start = start
        outcomes = Array(repeating: nil, count: exchanges.count)
        store = nil
        commands = 0
    }

    /// Reads the requests of `log`.
    /// - Throws: ``WhatIfError/logTooOld(file:missing:)`` when the log lacks its start time or
    ///   a 304's header fields (logs written before CacheScope recorded them).
    init(_ log: SessionLog, name: String) throws(WhatIfError) {
        guard let start = log.header.startedAt else {
            throw .logTooOld(file: name, missing: "its header has no startedAt, so response dates cannot be related to event times")
        }
        self.start = start
        exchanges = []
        outcomes = []
        store = nil
        commands = 0
        var slots: [UInt64: Int] = [:]
        var coalesced: Set<UInt64> = []
        for event in log.events {
            let date = start.addingTimeInterval(event.time)
            switch event.kind {
            case .storeStats(let stats):
                if store == nil { store = stats }
                if stats.diskUsed > 0 { hadDiskTier = true }
            case .stored(let stored):
                if stored.tier != .memory { hadDiskTier = true }
            case .command:
                commands += 1
            case .requestStarted(let started):
                // Only policies a caller can ask for: `background` and `refresh` are the cache's own.
                guard let requestID = event.requestID, let policy = CachePolicy(name: started.policy) else { continue }
                slots[requestID] = exchanges.count
                exchanges.append(SimulatedExchange(
                    method: started.method, url: started.url, requestHeaders: started.headers, requestBody: nil, policy: policy,
                    startDate: date, endDate: date, answer: .notRecorded))
                outcomes.append(nil)
            case .coalesced:
                if let requestID = event.requestID { coalesced.insert(requestID) }
            case .notModified(let notModified):
                guard let slot = event.requestID.flatMap({ slots[$0] }) else { continue }
                guard let headers = notModified.headers else {
                    throw .logTooOld(file: name, missing: "its 304 answers (notModified, first at seq \(event.seq)) lack the origin's header fields")
                }
                exchanges[slot].answer = .response(RecordedResponse(status: 304, statusText: "", headers: headers, body: nil, bodySize: 0))
                exchanges[slot].endDate = date
            case .served(let served):
                guard let requestID = event.requestID, let slot = slots[requestID], !coalesced.contains(requestID),
                    case .notRecorded = exchanges[slot].answer
                else { continue }
                if served.originError != nil {
                    // A stale response stood in for a failed origin (stale-if-error): the
                    // replay's origin fails the same way — its error status (the body's size
                    // comes with `requestFinished`), or no answer at all.
                    exchanges[slot].answer = served.originStatus.map {
                        .response(RecordedResponse(status: $0, statusText: "", headers: [:], body: nil, bodySize: 0))
                    } ?? .failed
                    exchanges[slot].endDate = date
                    continue
                }
                guard served.source == .network else { continue }
                exchanges[slot].answer = .response(RecordedResponse(
                    status: served.status, statusText: "", headers: served.headers, body: nil, bodySize: served.bytes))
                exchanges[slot].endDate = date
            case .requestFinished(let finished):
                guard let slot = event.requestID.flatMap({ slots[$0] }) else { continue }
                outcomes[slot] = finished.outcome
                if finished.outcome == .stale, case .response(var failed) = exchanges[slot].answer, failed.status >= 400 {
                    failed.bodySize = finished.bytesFromNetwork  // the error page's body, as stale-if-error received it
                    exchanges[slot].answer = .response(failed)
                }
                // An error with no origin answer: the origin could not be reached then either.
                if finished.outcome == .error, case .notRecorded = exchanges[slot].answer { exchanges[slot].answer = .failed }
            default:
                continue
            }
        }
    }
}
