public import CacheEvents
import SessionLog

/// The recent past of a live dashboard, for rewinding (`←` `→` while frozen): the last
/// ``capacity`` events in a ring, and the fold of every event that left it, so a replayer over
/// the ring starts from the true state and shows each instant exactly as the live display did.
///
/// ```swift
/// var history = RewindHistory(capacity: 100_000)
/// for event in live { history.append(event) }
/// var replayer = history.replayer()          // SessionReplayer over the ring
/// replayer.seekToEnd(); replayer.seek(by: -10)
/// ```
public struct RewindHistory: Sendable {
    /// The default ring size: 100,000 events (minutes of a busy demo).
    public static let defaultCapacity = 100_000

    /// How many recent events are kept.
    public let capacity: Int
    /// The fold of every event older than the ring's.
    private(set) var base = TrafficModel()
    private var ring: [CacheEvent] = []
    /// Where the oldest event sits once the ring is full.
    private var oldest = 0

    /// An empty history keeping the last `capacity` events (at least one).
    public init(capacity: Int = RewindHistory.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Adds the newest event; the oldest one leaves the ring (into ``base``) when it is full.
    public mutating func append(_ event: CacheEvent) {
        guard ring.count == capacity else {
            ring.append(event)
            return
        }
        base.apply(ring[oldest])
        ring[oldest] = event
        oldest = (oldest + 1) % capacity
    }

    /// The events in the ring, oldest first.
    public var events: [CacheEvent] { Array(ring[oldest...] + ring[..<oldest]) }

    /// A paused replayer over the ring, starting from the state before its first event.
    /// Names a fleet's instances in the fold of older events, so rewound rows carry them too.
    mutating func nameInstances(_ names: [String]) {
        base.nameInstances(names)
    }

    func replayer() -> SessionReplayer<TrafficModel> {
        SessionReplayer(events: events, initial: base)
    }
}
