/// A set of event kinds: what an observer that needs only some of them asks for, so the bus
/// never calls it for the others (``EventBus/observe(_:only:)``).
///
/// ```swift
/// let observation = bus.observe(counter, only: [.requestFinished, .storeStats])
/// ```
public struct CacheEventKinds: OptionSet, Sendable, Hashable {
    /// One bit per kind, in the order `CacheEventKind` declares them.
    public let rawValue: UInt32

    /// The set with these bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `requestStarted` events.
    public static let requestStarted = CacheEventKinds(rawValue: 1 << 0)
    /// `lookup` events.
    public static let lookup = CacheEventKinds(rawValue: 1 << 1)
    /// `revalidationSent` events.
    public static let revalidationSent = CacheEventKinds(rawValue: 1 << 2)
    /// `notModified` events.
    public static let notModified = CacheEventKinds(rawValue: 1 << 3)
    /// `modified` events.
    public static let modified = CacheEventKinds(rawValue: 1 << 4)
    /// `served` events.
    public static let served = CacheEventKinds(rawValue: 1 << 5)
    /// `stored` events.
    public static let stored = CacheEventKinds(rawValue: 1 << 6)
    /// `promoted` events.
    public static let promoted = CacheEventKinds(rawValue: 1 << 7)
    /// `evicted` events.
    public static let evicted = CacheEventKinds(rawValue: 1 << 8)
    /// `purged` events.
    public static let purged = CacheEventKinds(rawValue: 1 << 9)
    /// `coalesced` events.
    public static let coalesced = CacheEventKinds(rawValue: 1 << 10)
    /// `requestFinished` events.
    public static let requestFinished = CacheEventKinds(rawValue: 1 << 11)
    /// `error` events.
    public static let error = CacheEventKinds(rawValue: 1 << 12)
    /// `storeStats` events.
    public static let storeStats = CacheEventKinds(rawValue: 1 << 13)
    /// `entries` events.
    public static let entries = CacheEventKinds(rawValue: 1 << 14)
    /// `command` events.
    public static let command = CacheEventKinds(rawValue: 1 << 15)
    /// `dropped` events.
    public static let dropped = CacheEventKinds(rawValue: 1 << 16)

    /// Every kind.
    public static let all = CacheEventKinds(rawValue: (1 << 17) - 1)

    /// The kind of `kind`, as a one-member set; empty for `nil`.
    public init(_ kind: borrowing CacheEventKind?) {
        switch kind {
        case .some(let kind): self.init(kind)
        case .none: self.init()
        }
    }

    /// The kind of `kind`, as a one-member set.
    public init(_ kind: borrowing CacheEventKind) {
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
