import CacheEvents
import HTTPTypes

/// A request matched where its events lie: the positions of its events in a buffer, each
/// part read from its event only when a filter asks for it. What ``EventRequest`` assembles by
/// copying, without the copies — the batch selection over a million-event log decides every
/// request this way.
///
/// Valid only while the buffer is: used inside `withUnsafeBufferPointer`.
struct IndexedRequest: RequestFilterSubject {
    let events: UnsafeBufferPointer<CacheEvent>
    /// Positions of the request's latest event of each kind, or `-1` while none was seen.
    var started: Int32 = -1
    var lookupAt: Int32 = -1
    var revalidationAt: Int32 = -1
    var servedAt: Int32 = -1
    var finishedAt: Int32 = -1

    init(events: UnsafeBufferPointer<CacheEvent>) {
        self.events = events
    }

    private var start: RequestStarted? {
        guard started >= 0, case .requestStarted(let start) = events[Int(started)].kind else { return nil }
        return start
    }

    var method: String { start?.method ?? "?" }
    var url: String { start?.url ?? "" }
    var policy: String { start?.policy ?? "" }
    var requestHeaders: HTTPFields { start?.headers ?? [:] }

    var lookup: Lookup? {
        guard lookupAt >= 0, case .lookup(let lookup) = events[Int(lookupAt)].kind else { return nil }
        return lookup
    }

    var revalidation: RevalidationSent? {
        guard revalidationAt >= 0, case .revalidationSent(let sent) = events[Int(revalidationAt)].kind else { return nil }
        return sent
    }

    var served: Served? {
        guard servedAt >= 0, case .served(let served) = events[Int(servedAt)].kind else { return nil }
        return served
    }

    var finished: RequestFinished? {
        guard finishedAt >= 0, case .requestFinished(let finished) = events[Int(finishedAt)].kind else { return nil }
        return finished
    }
}
