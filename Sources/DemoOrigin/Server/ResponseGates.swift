import Synchronization

// MARK: - Holding responses back until a test says so (a test seam)

/// Holds the responses to chosen request targets until the test that closed the gate opens
/// it, and counts the requests that reached it.
///
/// Tests use it instead of `/slow` and sleeping to decide who leads: close the gate on a
/// target, start a request, wait until ``DemoOrigin/ResponseGate/arrivals`` says it reached the
/// origin, start the requests that should wait behind it, then open the gate. Nothing depends
/// on how long anything takes.
///
/// A `final class` with one `Mutex`, like the other origin state: the NIO handler registers
/// held responses synchronously on its event loop. A held response is released by running its
/// `release` closure, which hops back to the connection's own event loop.
final class ResponseGates: Sendable {
    private struct Gate {
        var arrivals = 0
        var held: [@Sendable () -> Void] = []
    }

    private let gates = Mutex<[String: Gate]>([:])

    /// Closes the gate on `target` (the request target exactly as sent). Requests already
    /// answered are not affected; counting starts at zero.
    func close(_ target: String) {
        gates.withLock { $0[target] = Gate() }
    }

    /// Counts a request for `target` and, when its gate is closed, keeps `release` to run
    /// when it opens: `true` when held, `false` when the response may go out now.
    func hold(_ target: String, release: @escaping @Sendable () -> Void) -> Bool {
        gates.withLock { gates in
            guard gates[target] != nil else { return false }
            gates[target]?.arrivals += 1
            gates[target]?.held.append(release)
            return true
        }
    }

    /// How many requests for `target` reached the closed gate.
    func arrivals(_ target: String) -> Int {
        gates.withLock { $0[target]?.arrivals ?? 0 }
    }

    /// Opens the gate on `target`: every held response goes out, later ones are not held.
    func open(_ target: String) {
        let held = gates.withLock { $0.removeValue(forKey: target)?.held ?? [] }
        for release in held { release() }
    }

    /// Forgets every gate and held response without sending them (the origin is stopping).
    func removeAll() {
        gates.withLock { $0.removeAll() }
    }
}

extension DemoOrigin {
    /// A closed gate on one request target (see ``ResponseGates``). Internal: a test seam.
    struct ResponseGate: Sendable {
        /// The request target it holds, exactly as sent (query included).
        let target: String
        fileprivate let gates: ResponseGates

        /// How many requests for the target have reached the origin since the gate closed.
        var arrivals: Int { gates.arrivals(target) }

        /// Lets every held response go, and every later one through at once.
        func open() { gates.open(target) }
    }

    /// Closes a gate on `target`: its responses are held until the gate is opened. A test
    /// seam, never used by the demo itself.
    func holdResponses(to target: String) -> ResponseGate {
        gates.close(target)
        return ResponseGate(target: target, gates: gates)
    }
}
