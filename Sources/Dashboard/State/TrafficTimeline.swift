import CacheStore
import HTTPCaching

/// Requests, hits and evictions over session time, for the header's rates, the sparklines and
/// the Stats view's evictions over time: the last minute in one-second buckets, and the whole
/// session in at most ``sessionCapacity`` buckets whose width doubles as the session grows.
///
/// It follows the events' timestamps (the session clock), never a wall clock, so a replay
/// draws the same graphs as the live session did. Memory is constant; adding an event touches
/// two buckets (halving the session's resolution, once per doubling of its length, touches
/// them all).
public struct TrafficTimeline: Sendable, Hashable {
    /// Seconds of the recent series: 60.
    public static let recentSeconds = 60
    /// Buckets of the whole-session series: 240.
    public static let sessionCapacity = 240

    /// The last minute, slot `second % 60`.
    private var recent = [TimelineBucket](repeating: TimelineBucket(), count: TrafficTimeline.recentSeconds)
    /// The second each recent slot counts (`Int.min` when unused).
    private var recentSeconds = [Int](repeating: .min, count: TrafficTimeline.recentSeconds)
    /// The whole session from ``start``, ``bucketWidth`` seconds a bucket.
    private var session = [TimelineBucket](repeating: TimelineBucket(), count: TrafficTimeline.sessionCapacity)
    /// The session time the whole-session series starts at (the first event's whole second).
    public private(set) var start: Double?
    /// Seconds each whole-session bucket covers: 1, 2, 4, …
    public private(set) var bucketWidth = 1.0

    /// An empty timeline.
    public init() {}

    // MARK: Folding

    /// Counts one finished request (not a background refresh) at session time `time`.
    mutating func addRequest(_ outcome: CacheOutcome, at time: Double) {
        change(at: time) { $0.addRequest(outcome) }
    }

    /// Counts `count` evictions (one by default) at session time `time`.
    mutating func addEviction(_ reason: EvictionReason, count: Int = 1, at time: Double) {
        change(at: time) { $0.addEviction(reason, count: count) }
    }

    private mutating func change(at time: Double, _ body: (inout TimelineBucket) -> Void) {
        let second = Int(time.rounded(.down))
        let slot = ((second % Self.recentSeconds) + Self.recentSeconds) % Self.recentSeconds
        if recentSeconds[slot] != second {
            // An event far older than the slot's second is too late for the last minute.
            if second > recentSeconds[slot] {
                recentSeconds[slot] = second
                recent[slot] = TimelineBucket()
                body(&recent[slot])
            }
        } else {
            body(&recent[slot])
        }
        let origin = start ?? Double(second)
        start = origin
        var index = Int(((time - origin) / bucketWidth).rounded(.down))
        while index >= Self.sessionCapacity {
            halveResolution()
            index = Int(((time - origin) / bucketWidth).rounded(.down))
        }
        body(&session[max(0, index)])
    }

    /// Merges neighbouring session buckets in place: twice the width, half the buckets used.
    private mutating func halveResolution() {
        for index in 0..<(Self.sessionCapacity / 2) {
            session[index] = session[2 * index] + session[2 * index + 1]
        }
        for index in (Self.sessionCapacity / 2)..<Self.sessionCapacity { session[index] = TimelineBucket() }
        bucketWidth *= 2
    }

    // MARK: Reading

    /// The last minute ending at `now`'s second, oldest first: one bucket a second (empty
    /// seconds are empty buckets).
    public func lastMinute(endingAt now: Double) -> [TimelineBucket] {
        let last = Int(now.rounded(.down))
        return (last - Self.recentSeconds + 1...last).map { second in
            let slot = ((second % Self.recentSeconds) + Self.recentSeconds) % Self.recentSeconds
            return recentSeconds[slot] == second ? recent[slot] : TimelineBucket()
        }
    }

    /// The last `seconds` whole seconds (at most 60) ending at `now`'s second, added up.
    public func total(lastSeconds seconds: Int, endingAt now: Double) -> TimelineBucket {
        let last = Int(now.rounded(.down))
        var total = TimelineBucket()
        for slot in 0..<Self.recentSeconds where recentSeconds[slot] > last - seconds && recentSeconds[slot] <= last {
            total = total + recent[slot]
        }
        return total
    }

    /// The session from its first event to `now`, oldest first, ``bucketWidth`` seconds a
    /// bucket (the last one may be partly in the future).
    public func wholeSession(endingAt now: Double) -> [TimelineBucket] {
        guard let start else { return [] }
        let used = Int(((max(now, start) - start) / bucketWidth).rounded(.down)) + 1
        return Array(session.prefix(min(Self.sessionCapacity, used)))
    }
}
