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

    @Test("A burst of stores brings few storeStats, the last with every new entry")
    func afterChanges() async throws {
        // Ten stores one after another, against a two-second interval: a loaded machine may
        // spread them over more than one interval, but they are covered by a few events, not
        // one each (that would take six seconds of stores). The last figures are awaited
        // (bounded), not expected by a deadline.
        let stores = 10
        try await Harness.start { $0.statsInterval = .seconds(2) }.runLogged { harness, log in
            for id in 1...stores { _ = try await harness.get("/max-age/60?id=\(id)") }
            #expect(await log.wait(seconds: 5) { _ in Self.statsEvents(log).contains { $0.entryCount == stores } },
                    "\(Self.statsEvents(log))")
            let stats = Self.statsEvents(log)
            #expect(stats.count <= stores / 2 - 1, "a burst's changes share events: \(stats.map(\.entryCount))")
            #expect(stats.last?.entryCount == stores)
            // Each event says something new: the entries only grow, and no figures are published twice.
            #expect(zip(stats, stats.dropFirst()).allSatisfy { $0.entryCount <= $1.entryCount && $0 != $1 }, "\(stats)")
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
