/// A set of event kinds: what a subscription that needs only some of them asks for, so the
/// bus never copies the others into its buffer (``EventBus/subscribe(_:initial:only:)``).
///
/// ```swift
/// let finished = bus.subscribe(.recorder, only: [.requestFinished, .storeStats])
/// ```
public struct CacheEventKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let requestStarted = CacheEventKinds(rawValue: 1 << 0)
    public static let lookup = CacheEventKinds(rawValue: 1 << 1)
    public static let revalidationSent = CacheEventKinds(rawValue: 1 << 2)
    public static let notModified = CacheEventKinds(rawValue: 1 << 3)
    public static let modified = CacheEventKinds(rawValue: 1 << 4)
    public static let served = CacheEventKinds(rawValue: 1 << 5)
    public static let stored = CacheEventKinds(rawValue: 1 << 6)
    public static let promoted = CacheEventKinds(rawValue: 1 << 7)
    public static let evicted = CacheEventKinds(rawValue: 1 << 8)
    public static let purged = CacheEventKinds(rawValue: 1 << 9)
    public static let coalesced = CacheEventKinds(rawValue: 1 << 10)
    public static let requestFinished = CacheEventKinds(rawValue: 1 << 11)
    public static let error = CacheEventKinds(rawValue: 1 << 12)
    public static let storeStats = CacheEventKinds(rawValue: 1 << 13)
    public static let entries = CacheEventKinds(rawValue: 1 << 14)
    public static let command = CacheEventKinds(rawValue: 1 << 15)
    public static let dropped = CacheEventKinds(rawValue: 1 << 16)

    /// Every kind.
    public static let all = CacheEventKinds(rawValue: (1 << 17) - 1)

    /// The kind of `kind`, as a one-member set.
    public init(_ kind: CacheEventKind) {
        switch kind {
        case .requestStarted: self = .requestStarted
        case .lookup: self = .lookup
        case .revalidationSent: self = .revalidationSent
        case .notModified: self = .notModified
        case .modified: self = .modified
        case .served: self = .served
        case .stored: self = .stored
        case .promoted: self = .promoted
        case .evicted: self = .evicted
        case .purged: self = .purged
        case .coalesced: self = .coalesced
        case .requestFinished: self = .requestFinished
        case .error: self = .error
        case .storeStats: self = .storeStats
        case .entries: self = .entries
        case .command: self = .command
        case .dropped: self = .dropped
        }
    }
}
