import Foundation
import Synchronization

/// A wall clock set by hand: simulated time for replaying captures.
final class SimulatedClock: Sendable {
    private let current: Mutex<Date>

    init(start: Date) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }
}
