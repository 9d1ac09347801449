import Foundation
import Synchronization
import Testing

@testable import DemoOrigin

@Suite("Workload: pacing and concurrency", .timeLimit(.minutes(2)))
struct WorkloadRunTests {
    static let base = "http://127.0.0.1:1"

    @Test("the rate is roughly honoured and the duration ends the run")
    func pacing() async throws {
        var configuration = WorkloadConfiguration.demo
        configuration.requestsPerSecond = 40
        configuration.duration = .seconds(1)
        let workload = try Workload(baseURL: Self.base, configuration: configuration)
        let sent = Mutex(0)
        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            await workload.run { _ in sent.withLock { $0 += 1 } }
        }
        let count = sent.withLock { $0 }
        // Start times are 0, 1/40, …, 39/40 s: never more than 40. The lower bound is loose: on
        // a busy machine (or beside CPU-heavy tests) the pacer skips what it fell behind on.
        #expect(count <= 40)
        #expect(count >= 8)
        #expect(elapsed >= .milliseconds(900), "the last start is at 975 ms, so run cannot end earlier")
        #expect(elapsed < .seconds(5))
    }

    @Test("never more than `concurrency` sends in flight")
    func concurrencyLimit() async throws {
        var configuration = WorkloadConfiguration.demo
        configuration.requestsPerSecond = 1_000
        configuration.concurrency = 3
        configuration.duration = .milliseconds(600)
        let workload = try Workload(baseURL: Self.base, configuration: configuration)
        let state = Mutex((current: 0, peak: 0, total: 0))
        await workload.run { _ in
            state.withLock {
                $0.current += 1
                $0.peak = max($0.peak, $0.current)
                $0.total += 1
            }
            try? await Task.sleep(for: .milliseconds(50))  // a send that takes a while: the behaviour under test
            state.withLock { $0.current -= 1 }
        }
        let final = state.withLock { $0 }
        #expect(final.peak <= 3)
        #expect(final.peak >= 2, "the limit is actually used")
        #expect(final.current == 0, "run returns only after in-flight sends finish")
        #expect(final.total < 600 / 50 * 3 + 4, "throughput is bounded by the limit")
    }

    @Test("sends happen in sequence order with the generated requests")
    func sendsTheSequence() async throws {
        var configuration = WorkloadConfiguration.demo
        configuration.requestsPerSecond = 500
        configuration.concurrency = 1
        let workload = try Workload(baseURL: Self.base, configuration: configuration)
        let seen = Mutex<[WorkloadRequest]>([])
        let run = Task { await workload.run { request in seen.withLock { $0.append(request) } } }
        let deadline = ContinuousClock.now + .seconds(20)
        while seen.withLock({ $0.count }) < 30, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        run.cancel()
        await run.value
        let sent = seen.withLock { $0 }
        #expect(sent.count >= 30)
        #expect(sent == Array(workload.prefix(sent.count)))
    }

    @Test("cancelling the task stops a run that has no duration")
    func cancellation() async throws {
        var configuration = WorkloadConfiguration.demo
        configuration.requestsPerSecond = 100
        let workload = try Workload(baseURL: Self.base, configuration: configuration)
        let sent = Mutex(0)
        let task = Task { await workload.run { _ in sent.withLock { $0 += 1 } } }
        // Cancel a run that is under way: once it has sent something (a handshake, no sleep).
        try await eventually("the run has sent 5 requests") { sent.withLock { $0 } >= 5 }
        task.cancel()
        let clock = ContinuousClock()
        let stopTime = await clock.measure { await task.value }
        #expect(stopTime < .seconds(2))
        let atStop = sent.withLock { $0 }
        #expect(atStop > 0)
        // The behaviour under test is that nothing happens later, so this waits on purpose:
        // a send still scheduled at 100 requests/s would come within 100 ms.
        try await Task.sleep(for: .milliseconds(100))
        #expect(sent.withLock { $0 } == atStop, "nothing is sent after run returned")
    }

    @Test("a workload against a real origin: every send reaches it")
    func endToEnd() async throws {
        try await withOrigin { origin in
            var configuration = WorkloadConfiguration.demo
            configuration.mix[.slow] = 0
            configuration.requestsPerSecond = 100
            configuration.duration = .milliseconds(500)
            let workload = try Workload(baseURL: origin.baseURL, configuration: configuration)
            let sent = Mutex(0)
            let port = origin.port
            let base = origin.baseURL
            await workload.run { request in
                let target = String(request.url.dropFirst(base.count))
                _ = try? await LoopbackHTTP.send(
                    request.method, port: port, target: target, headers: request.headers.map { ($0.name, $0.value) })
                sent.withLock { $0 += 1 }
            }
            #expect(sent.withLock { $0 } > 0)
            #expect(origin.totalRequestCount() == sent.withLock { $0 })
        }
    }
}
