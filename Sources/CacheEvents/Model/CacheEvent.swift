public import CacheStore
/// One thing that happened in a caching client: the unit every watcher consumes — the live
/// dashboard, the session recorder, attached dashboards and replays alike.
///
/// `seq` increases by one per event of a session; `time` is seconds since the session
/// started; `requestID` ties together the events of one request.
///
/// ```swift
/// for await event in client.events.subscribe() {
///     if case .requestFinished(let done) = event.kind { print(event.requestID!, done.outcome) }
/// }
/// ```
public struct CacheEvent: Sendable, Hashable {
    // Sessions hold millions of events, so the layout is chosen: 104 bytes (checked by a
    // test). The request ID is stored without an optional's tag byte, and the instance sits
    // after the kind, in what would be padding.
    /// Position in the session, starting at 1, without gaps for lossless subscribers.
    /// Snapshot events a subscription starts with repeat the seq of the last event before them.
    public var seq: UInt64
    /// Seconds since the session started.
    public var time: Double
    /// ``requestID``, with `UInt64.max` for none.
    @usableFromInline var storedRequestID: UInt64
    /// What happened.
    public var kind: CacheEventKind
    /// Which instance of a fleet the event came from, when one dashboard watches several
    /// processes (`cachescope attach S1 S2 …`): the attached instance's index, starting at 0.
    /// Always 0 in one process's own stream; it is not written to session logs or the attach
    /// socket.
    public var instance: UInt16 = 0

    /// The request this event belongs to, if any. (Inlinable: read for every event of a
    /// million-event log, it must not copy the event to ask.)
    @inlinable public var requestID: UInt64? {
        get { storedRequestID == .max ? nil : storedRequestID }
        set { storedRequestID = newValue ?? .max }
    }

    /// ``requestID`` made unique across a fleet (`cachescope attach S1 S2 …`), whose instances
    /// each number their requests from 1: the ``instance`` in the top 16 bits. Equal to
    /// `requestID` in one process's own stream (instance 0). For tables of open requests.
    @inlinable public var requestKey: UInt64? {
        requestID.map { UInt64(instance) << 48 | ($0 & (1 << 48 - 1)) }
    }

    /// The times an event read from a log or an attach socket may carry: a billion seconds
    /// (about 31 years) either side of the session's start. Decoding refuses others, which no
    /// session has and which its readers could not count in whole seconds.
    public static let possibleTimes: ClosedRange<Double> = -1e9...1e9

    /// The byte counts, sizes and counts an event read from a log or an attach socket may
    /// carry: 0 to 2^50 (a pebibyte). Decoding refuses others, which no cache produces and
    /// which, added up, would overflow the counters that sum them.
    public static let possibleAmounts: ClosedRange<Int> = 0...(1 << 50)

    /// The durations (`ttl`, `age`, `latency`, `idle`) such an event may carry, in seconds:
    /// a trillion (about 31,700 years) either side of zero — room for a freshness lifetime
    /// an `Expires` in the year 9999 gives. Decoding refuses others (`1e300`), which no date
    /// or timestamp could be made from.
    public static let possibleDurations: ClosedRange<Double> = -1e12...1e12

    /// Whether `status` may stand in an event's status field: an HTTP status code (three
    /// digits, 100–999, RFC 9110 §15), or 0 for a request that got no response. Decoding
    /// refuses others: a simulation could not answer with them.
    public static func isPossibleStatus(_ status: Int) -> Bool {
        status == 0 || (100...999).contains(status)
    }

    /// Creates an event. (A request ID of `UInt64.max` reads as none.)
    public init(seq: UInt64, time: Double, requestID: UInt64? = nil, kind: CacheEventKind) {
        self.seq = seq
        self.time = time
        storedRequestID = requestID ?? .max
        self.kind = kind
    }
}

/// The kinds of ``CacheEvent``. A request yields, in order: `requestStarted` → `lookup` →
/// (`coalesced` | `revalidationSent` → `notModified` / `modified`)? → `served` →
/// `requestFinished`; store changes and statistics come as their own events.
public enum CacheEventKind: Sendable, Hashable {
    /// A request entered the client.
    case requestStarted(RequestStarted)
    /// The cache lookup's verdict and its reason.
    case lookup(Lookup)
    /// A conditional request went to the origin.
    case revalidationSent(RevalidationSent)
    /// The origin answered 304: stored responses were freshened.
    case notModified(NotModified)
    /// The origin answered a conditional request with a new response.
    case modified(Modified)
    /// The response was handed to the caller.
    case served(Served)
    /// A response was stored. (Boxed: at 104 bytes the largest payload, and one per miss at
    /// most; inline it would widen every event a session holds.)
    indirect case stored(Stored)
    /// A disk entry was copied into memory.
    case promoted(EntryRef)
    /// An entry left the store.
    case evicted(Evicted)
    /// A purge command or API call removed entries. (Boxed: rare, and wider than the rest.)
    indirect case purged(Purged)
    /// The request waited for another identical request instead of going to the origin.
    case coalesced(Coalesced)
    /// The request completed.
    case requestFinished(RequestFinished)
    /// Something failed (origin unreachable, disk degraded, …).
    case error(ErrorInfo)
    /// Store usage and capacity.
    case storeStats(StoreStats)
    /// Every stored entry at one moment (sent at session start and to late attachers).
    case entries(EntriesSnapshot)
    /// A command (purge, refresh, reload) was received.
    case command(CommandInfo)
    /// A slow watcher missed this many events: its buffer was full (for a lossless subscriber,
    /// only when even its large buffer overflows).
    case dropped(Dropped)

    /// Whether it is part of a store snapshot (`storeStats`, `entries`), which a late
    /// subscriber gets first and which repeats the `seq` of the last event before it.
    public var isSnapshotPart: Bool {
        switch self {
        case .storeStats, .entries: true
        default: false
        }
    }

    /// The kind's name as written in session logs (`"kind":"lookup"`).
    public var name: String {
        switch self {
        case .requestStarted: return "requestStarted"
        case .lookup: return "lookup"
        case .revalidationSent: return "revalidationSent"
        case .notModified: return "notModified"
        case .modified: return "modified"
        case .served: return "served"
        case .stored: return "stored"
        case .promoted: return "promoted"
        case .evicted: return "evicted"
        case .purged: return "purged"
        case .coalesced: return "coalesced"
        case .requestFinished: return "requestFinished"
        case .error: return "error"
        case .storeStats: return "storeStats"
        case .entries: return "entries"
        case .command: return "command"
        case .dropped: return "dropped"
        }
    }
}
