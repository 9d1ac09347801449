import Synchronization

// MARK: - Counting requests per target

/// Counts requests per request target and remembers each target's latest request headers.
///
/// A `final class` with a `Mutex` rather than an actor: the NIO event loop records into it
/// synchronously (it cannot `await`), and tests read it synchronously right after a request.
final class RequestCounter: Sendable {
    private struct Storage {
        var counts: [String: Int] = [:]
        var lastHeaders: [String: [(name: String, value: String)]] = [:]
    }

    private let storage = Mutex(Storage())

    /// Records one request for `target` (path plus query, exactly as sent).
    func record(target: String, headers: [(name: String, value: String)]) {
        storage.withLock {
            $0.counts[target, default: 0] += 1
            $0.lastHeaders[target] = headers
        }
    }

    /// Requests seen for `target` since start or the last reset.
    func count(target: String) -> Int {
        storage.withLock { $0.counts[target] ?? 0 }
    }

    /// Requests seen for all targets since start or the last reset.
    func total() -> Int {
        storage.withLock { $0.counts.values.reduce(0, +) }
    }

    /// A snapshot of every target's count.
    func snapshot() -> [String: Int] {
        storage.withLock { $0.counts }
    }

    /// The header fields of the latest request for `target`, or `nil` if none was seen.
    func lastHeaders(target: String) -> [(name: String, value: String)]? {
        storage.withLock { $0.lastHeaders[target] }
    }

    /// Forgets all counts and remembered headers.
    func reset() {
        storage.withLock { $0 = Storage() }
    }
}
