@testable import DemoOrigin
import Foundation
import Synchronization

/// A clock the test moves by hand, for the origin's injectable `now`.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 784_111_777)) {  // Sun, 06 Nov 1994 08:49:37 GMT
        current = Mutex(start)
    }

    var now: @Sendable () -> Date {
        { self.current.withLock { $0 } }
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// Starts an origin, runs `body`, and always stops the origin afterwards.
@discardableResult
func withOrigin<T>(
    now: (@Sendable () -> Date)? = nil, _ body: (DemoOrigin) async throws -> T
) async throws -> T {
    let origin = try await DemoOrigin.start(now: now ?? { Date() })
    do {
        let result = try await body(origin)
        try await origin.stop()
        return result
    } catch {
        try await origin.stop()
        throw error
    }
}

/// Why waiting for a condition gave up.
struct WaitTimeout: Error, CustomStringConvertible {
    let description: String
}

/// Polls `condition` (every 2 ms) until it holds; throws after 20 s. A handshake on state,
/// never a guess at how long something takes.
func eventually(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(description: "gave up waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(2))
    }
}
