import Foundation
import Synchronization
import Testing

@testable import DemoOrigin

/// The test seam the client's coalescing tests decide who leads with: a gate that holds the
/// responses to one target until the test opens it.
@Suite("Response gate (test seam)", .timeLimit(.minutes(2)))
struct ResponseGateTests {
    /// How many held requests got their answer.
    final class Answered: Sendable {
        let count = Mutex(0)
    }

    @Test("held responses go out only when the gate opens; arrivals are counted; other targets pass")
    func holdsUntilOpened() async throws {
        try await withOrigin { origin in
            let gate = origin.holdResponses(to: "/max-age/60")
            let answered = Answered()
            let port = origin.port
            let held = (0..<3).map { _ in
                Task {
                    let response = try await LoopbackHTTP.get(port, "/max-age/60")
                    answered.count.withLock { $0 += 1 }
                    return response
                }
            }
            try await eventually("three requests at the gate") { gate.arrivals == 3 }
            // Another target is not held, and neither is the same path with a query.
            #expect(try await LoopbackHTTP.get(port, "/max-age/5").status == 200)
            #expect(try await LoopbackHTTP.get(port, "/max-age/60?x=1").status == 200)
            #expect(answered.count.withLock { $0 } == 0, "a response left the gate before it opened")
            gate.open()
            for task in held { #expect(try await task.value.status == 200) }
            #expect(answered.count.withLock { $0 } == 3)
            // Open: later requests pass at once.
            #expect(try await LoopbackHTTP.get(port, "/max-age/60").status == 200)
            #expect(origin.requestCount(path: "/max-age/60") == 4)
        }
    }

    @Test("a held request whose connection closes is dropped; stopping the origin with a closed gate is quick")
    func stopWithClosedGate() async throws {
        let origin = try await DemoOrigin.start()
        let gate = origin.holdResponses(to: "/no-store")
        let port = origin.port
        let held = Task { try await LoopbackHTTP.get(port, "/no-store") }
        try await eventually("the request at the gate") { gate.arrivals == 1 }
        let elapsed = try await ContinuousClock().measure { try await origin.stop() }
        #expect(elapsed < .seconds(10))
        gate.open()  // after stop: nothing is sent, nothing crashes
        await #expect(throws: LoopbackHTTP.Failure.self) { try await held.value }
    }
}
