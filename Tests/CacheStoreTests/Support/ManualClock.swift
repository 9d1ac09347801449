import Foundation
@_spi(Benchmarks) import CacheStore

/// A clock tests move by hand, for the store's `currentDate`.
final class ManualClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The closure for `StoreConfiguration.currentDate`.
    var function: @Sendable () -> Date { { [self] in now } }
}
