import BenchmarkSupport
import CacheEvents
import CacheMetrics
import CacheScopeApp
import CachingClient
import CoreMetrics
import Foundation

/// `--metrics`: issue #17's target that metrics switched on add at most 5 % to a fresh hit,
/// with two backends: swift-metrics' no-op one (what `CacheMetrics` itself costs) and
/// swift-prometheus, as `cachescope --metrics` serves it (what an app that exports its metrics
/// pays). Each: `runMetricsOverhead(_:backend:factory:)`.
func runMetricsOverhead(_ setup: BenchmarkSetup) async throws -> Bool {
    let noOp = try await runMetricsOverhead(setup, backend: "no-op backend") { NOOPMetricsHandler.instance }
    let prometheus = try await runMetricsOverhead(setup, backend: "Prometheus") {
        CacheMetricsExposition()
    }
    // Not a target: what the bus's observer path costs by itself, with an observer of a
    // fresh hit's `requestFinished` that does nothing (the floor under the other two).
    _ = try await runObserverOverhead(setup, what: "an observer doing nothing") { events in
        let observation = events.observe(IdleObserver(), only: .requestFinished)
        return { observation.cancel() }
    }
    return noOp && prometheus
}

/// Sees events and does nothing with them.
private final class IdleObserver: EventObserver {
    func observe(_ event: CacheEvent) {}
}

/// The same client alternates, round by round, between no metrics and a `CacheMetrics` on its
/// bus made with `factory()` (a fresh registry a round): 30 rounds of each, 10,000 hits a
/// round. Per round, the wall time per hit from a detached task (what the app waits) and the
/// process CPU per hit; the verdict is the median of the rounds' wall-time ratios, with the CPU
/// ratio beside it.
func runMetricsOverhead(
    _ setup: BenchmarkSetup, backend: String, factory: @escaping @Sendable () -> any MetricsFactory
) async throws -> Bool {
    try await runObserverOverhead(setup, what: "metrics on (\(backend))") { events in
        let metrics = CacheMetrics(events: events, storeStats: setup.client.store.stats(), factory: factory())
        return { await metrics.stop() }
    }
}

/// The A/B comparison of ``runMetricsOverhead(_:backend:factory:)`` with whatever `attach`
/// puts on the client's bus for a round (and takes off again with the closure it returns).
func runObserverOverhead(
    _ setup: BenchmarkSetup, what: String, attach: @escaping @Sendable (EventBus) -> @Sendable () async -> Void
) async throws -> Bool {
    let (client, hitRequest) = (setup.client, setup.hitRequest)
    let hits = 10_000
    func round() async throws -> (wall: Double, cpu: Double) {
        try await Task.detached {
            let cpuStart = processCPUSeconds()
            let start = ContinuousClock.now
            for _ in 0..<hits { _ = try await client.data(for: hitRequest) }
            let wall = (ContinuousClock.now - start).seconds
            return (wall / Double(hits), (processCPUSeconds() - cpuStart) / Double(hits))
        }.value
    }
    for _ in 0..<3 { _ = try await round() }  // warm-up
    var wallRatios: [Double] = [], cpuRatios: [Double] = []
    var off: [Double] = [], on: [Double] = []
    func withMetrics() async throws -> (wall: Double, cpu: Double) {
        let detach = attach(client.events)
        let measured = try await round()
        await detach()  // off the bus before the next round
        return measured
    }
    for index in 0..<30 {
        // Which goes first alternates, so a drift within a pair favours neither.
        let plain: (wall: Double, cpu: Double)
        let measured: (wall: Double, cpu: Double)
        if index % 2 == 0 {
            plain = try await round()
            measured = try await withMetrics()
        } else {
            measured = try await withMetrics()
            plain = try await round()
        }
        off.append(plain.wall)
        on.append(measured.wall)
        wallRatios.append(measured.wall / plain.wall)
        cpuRatios.append(measured.cpu / plain.cpu)
    }
    let wallRatio = median(wallRatios)
    let pass = wallRatio <= 1.05
    print(String(
        format: "%@ fresh hit with %@ within 5%% of metrics off: median of 30 rounds' ratios %.3f (rounds %.3f–%.3f); "
            + "%.2f µs against %.2f µs a hit; process CPU ratio %.3f (rounds %.3f–%.3f)",
        pass ? "PASS" : "FAIL", what, wallRatio, wallRatios.min() ?? 0, wallRatios.max() ?? 0, median(on) * 1e6, median(off) * 1e6,
        median(cpuRatios), cpuRatios.min() ?? 0, cpuRatios.max() ?? 0))
    return pass
}
