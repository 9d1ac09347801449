import CacheEvents
import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import Testing

/// `storeStats` follows the store's changes: within `statsInterval` of a change, one event for
/// a burst of changes, and nothing at all while the store does not change — an idle client
/// with a watcher attached does not wake.
@Suite("storeStats: published after changes, never while idle", .timeLimit(.minutes(1)))
struct StoreStatsEventTests {
    static func statsEvents(_ log: EventLog) -> [StoreStats] {
        log.all.compactMap { if case .storeStats(let stats) = $0.kind { stats } else { nil } }
    }

    @Test("A burst of stores brings one storeStats with the new figures, within the interval")
    func afterChanges() async throws {
        try await Harness.start { $0.statsInterval = .milliseconds(200) }.runLogged { harness, log in
            for id in 1...5 { _ = try await harness.get("/max-age/60?id=\(id)") }
            #expect(await log.wait(seconds: 5) { events in events.contains { if case .storeStats = $0.kind { true } else { false } } })
            // The burst took well under the interval: its changes share one event.
            let stats = Self.statsEvents(log)
            #expect(stats.count == 1, "\(stats)")
            #expect(stats.last?.entryCount == 5)
        }
    }

    @Test("With a watcher but no traffic, no storeStats is published")
    func idle() async throws {
        try await Harness.start { $0.statsInterval = .milliseconds(50) }.runLogged { harness, log in
            _ = try await harness.get("/max-age/60")
            #expect(await log.wait(seconds: 5) { !Self.statsEvents(log).isEmpty && !$0.isEmpty })
            let settled = Self.statsEvents(log).count
            // Ten intervals without a change: the old ticker would have published ten times.
            try await Task.sleep(for: .milliseconds(500))
            #expect(Self.statsEvents(log).count == settled)
        }
    }

    @Test("Hits change no figure: the same figures are not published again")
    func unchangedFigures() async throws {
        try await Harness.start { $0.statsInterval = .milliseconds(50) }.runLogged { harness, log in
            _ = try await harness.get("/max-age/60")
            #expect(await log.wait(seconds: 5) { _ in Self.statsEvents(log).count == 1 })
            for _ in 0..<3 { #expect(try await harness.get("/max-age/60").outcome == .hit) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(Self.statsEvents(log).count == 1, "\(Self.statsEvents(log))")
        }
    }
}
