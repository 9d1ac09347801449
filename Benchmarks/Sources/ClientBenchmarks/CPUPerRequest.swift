import BenchmarkSupport
import CachingClient
import Foundation

/// `--cpu`: wall time and process CPU time per request for each way of sending, one after
/// another from a detached task. When two ways differ in wall time but not in CPU, the
/// difference is waiting (thread wake-ups), not work.
/// `only` keeps the ways whose name contains it.
func printCPUPerRequest(_ setup: BenchmarkSetup, only: String?) async throws {
    let transport = AsyncHTTPClientTransport(client: setup.shared)
    let conditionalRequest = try await setup.conditionalRequest()
    let (client, hitRequest, revalidateRequest) = (setup.client, setup.hitRequest, setup.revalidateRequest)
    let ways: [(String, @Sendable () async throws -> Void)] = [
        ("plain AsyncHTTPClient GET", { try await setup.plainGet() }),
        ("transport alone, conditional GET (304)", { _ = try await transport.send(conditionalRequest, body: nil, timeout: .seconds(5)) }),
        ("304 round trip through the client", { _ = try await client.data(for: revalidateRequest) }),
        ("fresh hit through the client", { _ = try await client.data(for: hitRequest) }),
    ]
    let count = only == nil ? 5000 : 20000
    for (name, send) in ways where only.map(name.contains) ?? true {
        let (wall, cpu) = try await Task.detached {
            for _ in 0..<(count / 10) { try await send() }
            let cpuStart = processCPUSeconds()
            let start = ContinuousClock.now
            for _ in 0..<count { try await send() }
            let elapsed = ContinuousClock.now - start
            let (seconds, attoseconds) = elapsed.components
            return (Double(seconds) + Double(attoseconds) * 1e-18, processCPUSeconds() - cpuStart)
        }.value
        print(String(format: "%@: %.1f µs wall, %.1f µs CPU per request", name, wall / Double(count) * 1e6, cpu / Double(count) * 1e6))
    }
}
