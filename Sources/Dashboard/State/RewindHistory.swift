public import CacheEvents
import SessionLog

/// The recent past of a live dashboard, for rewinding (`←` `→`): the newest events, at least
/// ``capacity`` of them once that many have arrived, in segments of a quarter of the capacity,
/// each with the traffic as it was before its first event — so a replayer over them starts
/// from the true state and shows each instant exactly as the live display did.
///
/// The history folds nothing itself: the traffic before a segment is the dashboard's own live
/// traffic at that moment, handed in with the event (a copy that shares storage until the live
/// traffic changes), and the segments' states are the replayer's checkpoints. It keeps between
/// ``capacity`` and 1¼ × ``capacity`` events: the oldest segment leaves once the others hold
/// ``capacity`` without it.
///
/// ```swift
/// var history = RewindHistory(capacity: 100_000)
/// for event in live {
///     history.append(event, after: traffic)   // the traffic before the event
///     traffic.apply(event)
/// }
/// var replayer = history.replayer()          // SessionReplayer over the kept events
/// replayer.seekToEnd(); replayer.seek(by: -10)
/// ```
public struct RewindHistory: Sendable {
    /// The default number of events kept: 100,000 (minutes of a busy demo).
    public static let defaultCapacity = 100_000

    /// The most events `--rewind-events` may ask to keep: 10,000,000 (about 1.3 GB of events
    /// and the snapshots between them, at 1¼ × the count).
    public static let maximumCapacity = 10_000_000

    /// How many recent events are kept at least (once that many have arrived).
    public let capacity: Int
    /// Events per segment: a quarter of ``capacity`` (at least one).
    let segmentLength: Int

    private struct Segment: Sendable {
        /// The traffic before ``events``' first.
        var start: TrafficModel
        var events: [CacheEvent]
    }

    private var segments: [Segment] = []
    /// Events appended so far.
    private(set) var appended = 0
    /// Events kept.
    private(set) var count = 0

    /// An empty history keeping at least the last `capacity` events (at least one).
    public init(capacity: Int = RewindHistory.defaultCapacity) {
        self.capacity = max(1, capacity)
        segmentLength = max(1, self.capacity / 4)
    }

    /// Adds the newest event; `traffic` is the live traffic before it (the fold of every event
    /// appended before). The oldest segment leaves when the others keep ``capacity`` events.
    public mutating func append(_ event: CacheEvent, after traffic: TrafficModel) {
        if let last = segments.indices.last, segments[last].events.count < segmentLength {
            segments[last].events.append(event)
        } else {
            var events: [CacheEvent] = []
            // Grown as events come, past a first chunk: a segment is a quarter of the capacity,
            // which may be millions of events never reached.
            events.reserveCapacity(min(segmentLength, 1 << 14))
            events.append(event)
            segments.append(Segment(start: traffic, events: events))
        }
        appended += 1
        count += 1
        if count - segments[0].events.count >= capacity {
            count -= segments.removeFirst().events.count
        }
    }

    /// The number (counting every event appended, from 0) of the oldest event kept once the
    /// next event is appended: past the current oldest when that append drops a segment.
    var oldestAfterNextAppend: Int {
        guard let first = segments.first else { return 0 }
        let dropped = count + 1 - first.events.count >= capacity ? first.events.count : 0
        return appended - count + dropped
    }

    /// The kept events, oldest first.
    public var events: [CacheEvent] { segments.flatMap(\.events) }

    /// Names a fleet's instances in the segments' states, so rewound rows carry them too.
    mutating func nameInstances(_ names: [String]) {
        for index in segments.indices { segments[index].start.nameInstances(names) }
    }

    /// Ends an instance's life in the segments' states too, so a rewound view cuts its open
    /// requests off at the same event the live one did.
    mutating func endLife(of instance: UInt16, after afterSeq: UInt64) {
        for index in segments.indices { segments[index].start.endLife(of: instance, after: afterSeq) }
    }

    /// A paused replayer over the kept events, starting from the state before the first; its
    /// checkpoints are the segments' states, so making it folds nothing.
    func replayer() -> SessionReplayer<TrafficModel> {
        let starts = segments.isEmpty ? [TrafficModel()] : segments.map(\.start)
        return SessionReplayer(events: events, checkpoints: starts, checkpointInterval: segmentLength)
    }
}
