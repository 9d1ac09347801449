public import CacheStore
import CacheEvents
import SessionLog

/// Events per second over the last ``seconds`` seconds of the event clock, in whole-second
/// buckets: constant memory however long the session runs.
///
/// The rate at `now` counts the events whose second lies in the window ending at `now`'s
/// second and divides by the window's length — or by the session's age, while the session is
/// younger than the window, so the first seconds are not understated.
public struct RateWindow: Sendable, Hashable {
    /// The window's length in seconds: 10.
    public static let seconds = 10

    private var counts = [Int](repeating: 0, count: RateWindow.seconds)
    /// The second each bucket currently counts (`Int.min` for unused buckets).
    private var bucketSeconds = [Int](repeating: .min, count: RateWindow.seconds)
    /// An empty window.
    public init() {}

    /// Counts `count` events at session time `time`.
    public mutating func add(at time: Double, count: Int = 1) {
        let second = Int(time.rounded(.down))
        let slot = ((second % Self.seconds) + Self.seconds) % Self.seconds
        if bucketSeconds[slot] != second {
            // Events far older than the bucket's current second are too late to count.
            guard second > bucketSeconds[slot] else { return }
            bucketSeconds[slot] = second
            counts[slot] = 0
        }
        counts[slot] += count
    }

    /// Events per second in the window ending at `now`, for a session that started at `start`.
    public func rate(at now: Double, since start: Double) -> Double {
        let nowSecond = Int(now.rounded(.down))
        var total = 0
        for slot in 0..<Self.seconds where bucketSeconds[slot] > nowSecond - Self.seconds && bucketSeconds[slot] <= nowSecond {
            total += counts[slot]
        }
        let span = min(Double(Self.seconds), max(1, now - start))
        return Double(total) / span
    }
}

/// Evictions per second by cause, each over a ``RateWindow``.
public struct EvictionRates: Sendable, Hashable {
    private var windows: [RateWindow] = Array(repeating: RateWindow(), count: 4)

    /// No evictions yet.
    public init() {}

    private static func index(_ reason: EvictionReason) -> Int {
        switch reason {
        case .capacity: 0
        case .expired: 1
        case .purged: 2
        case .corrupt: 3
        }
    }

    /// Counts one eviction.
    public mutating func add(_ reason: EvictionReason, at time: Double) {
        windows[Self.index(reason)].add(at: time)
    }

    /// Evictions per second for `reason` in the window ending at `now`.
    public func rate(_ reason: EvictionReason, at now: Double, since start: Double) -> Double {
        windows[Self.index(reason)].rate(at: now, since: start)
    }
}
