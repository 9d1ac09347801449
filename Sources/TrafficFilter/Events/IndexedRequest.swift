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
    var startedAt: Int32 = -1
    var lookupAt: Int32 = -1
    var revalidationAt: Int32 = -1
    var servedAt: Int32 = -1
    var finishedAt: Int32 = -1

    init(events: UnsafeBufferPointer<CacheEvent>) {
        self.events = events
    }

    /// The kind of the event at `position`, `nil` for none.
    private func kind(at position: Int32) -> CacheEventKind? { position >= 0 ? events[Int(position)].kind : nil }

    private var start: RequestStarted? {
        guard case .requestStarted(let start)? = kind(at: startedAt) else { return nil }
        return start
    }

    var method: String { start?.method ?? "?" }
    var url: String { start?.url ?? "" }
    var policy: String { start?.policy ?? "" }
    var requestHeaders: HTTPFields { start?.headers ?? [:] }

    var lookup: Lookup? { if case .lookup(let lookup)? = kind(at: lookupAt) { lookup } else { nil } }
    var revalidation: RevalidationSent? { if case .revalidationSent(let sent)? = kind(at: revalidationAt) { sent } else { nil } }
    var served: Served? { if case .served(let served)? = kind(at: servedAt) { served } else { nil } }
    var finished: RequestFinished? { if case .requestFinished(let finished)? = kind(at: finishedAt) { finished } else { nil } }
}
