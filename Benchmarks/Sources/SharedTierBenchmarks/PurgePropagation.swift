import BenchmarkSupport
import CacheEvents
import CacheStore
import CachingClient
import Foundation
import HTTPCaching

/// `--purges [COUNT]`: issue #17's "a purge on one instance reaches the other within 1 s".
/// On the benchmark's fleet (see ``Fleet``), COUNT rounds (default 200), each on a URL of its
/// own: the writer fetches it (stored in the shared tier), a reader fetches it (a shared hit,
/// now in its memory tier) and subscribes to its own events; then the writer purges it — by
/// key, by tag (`/items/{id}`, tagged `item-{id}`) and by URL prefix in turn — and the time
/// runs from the command's start until the reader publishes its `purged` event naming the
/// writer as origin. The reader must then no longer hold the entry. A round whose event does
/// not come within 5 s, or that finds anything else amiss, is a failure of its own.
enum PurgePropagation {
    /// The target: p99 of the rounds' propagation times.
    static let target = Duration.seconds(1)
    /// How long a round waits for the reader's event.
    static let patience = Duration.seconds(5)
    /// Rounds run first and not counted (the listener's and pool's first use).
    static let warmUpRounds = 3

    /// One way to purge the round's URL.
    enum Kind: String, CaseIterable {
        case key, tag, prefix
    }

    /// What one round measured, or why it failed.
    struct Round {
        let kind: Kind
        /// From the command's start to the reader's `purged` event.
        var propagation: Duration?
        /// From the command's start until `perform` returned on the writer.
        var command: Duration?
        /// Why the round failed, if it did.
        var failure: String?
    }

    /// Runs the warm-up and `count` measured rounds, prints the figures and the verdict, and
    /// says whether the target was met with no round failing.
    static func run(count: Int) async throws -> Bool {
        let fleet = try await Fleet.start()
        do {
            let passed = try await measure(fleet, count: count)
            try await fleet.stop()
            return passed
        } catch {
            try? await fleet.stop()
            throw error
        }
    }

    private static func measure(_ fleet: Fleet, count: Int) async throws -> Bool {
        let origin = fleet.writer.configuration.sharedTier?.instanceName ?? "?"
        let reader = fleet.readers[0].configuration.sharedTier?.instanceName ?? "?"
        var warm: [String] = []
        for round in 0..<warmUpRounds {
            let result = try await Self.round(fleet, "warm", round, kind: Kind.allCases[round % Kind.allCases.count], origin: origin)
            warm.append(result.propagation.map(ms) ?? "failed (\(result.failure ?? "?"))")
        }
        print("warm-up purges (not counted): \(warm.joined(separator: ", "))")
        var rounds: [Round] = []
        for round in 0..<count {
            let result = try await Self.round(fleet, "purge", round, kind: Kind.allCases[round % Kind.allCases.count], origin: origin)
            if let failure = result.failure { print("round \(round) (by \(result.kind.rawValue)): \(failure)") }
            rounds.append(result)
        }

        let times = rounds.compactMap(\.propagation).map(seconds)
        let failed = rounds.filter { $0.failure != nil }.count
        let all = Measurement(name: "", secondsPerOperation: times)
        for kind in Kind.allCases {
            let mine = rounds.filter { $0.kind == kind }
            guard !mine.isEmpty else { continue }
            let figures = Measurement(name: "", secondsPerOperation: mine.compactMap(\.propagation).map(seconds))
            let commands = Measurement(name: "", secondsPerOperation: mine.compactMap(\.command).map(seconds))
            print(String(
                format: "purge by %@ (%d): reaches %@ %@ p50, %@ p90; the command returns on %@ after %@ p50",
                kind.rawValue, mine.count, reader, ms(figures.median), ms(figures.percentile(0.9)), origin, ms(commands.median)))
        }
        let p99 = all.percentile(0.99)
        let passed = failed == 0 && !times.isEmpty && p99 <= seconds(target)
        print(String(
            format: "%@ purge reaches the other instance: p99 %@ ≤ %@ (p50 %@, p90 %@, max %@; %d purges from %@ to %@, "
                + "by key, tag and prefix in turn; %d failed)",
            passed ? "PASS" : "FAIL", ms(p99), String(format: "%.0f ms", seconds(target) * 1e3), ms(all.median), ms(all.percentile(0.9)),
            ms(all.secondsPerOperation.last ?? .nan), rounds.count, origin, reader, failed))
        return passed
    }

    /// What the reader's subscription saw first: its `purged` event from the writer (when it
    /// came, and how many entries it dropped), or nothing within ``patience``.
    private enum Arrival: Sendable {
        case purged(ContinuousClock.Instant, count: Int)
        case timedOut
        case ended
    }

    /// One round on URL number `index` of `name`, purged by `kind`.
    private static func round(_ fleet: Fleet, _ name: String, _ index: Int, kind: Kind, origin: String) async throws -> Round {
        let (writer, reader) = (fleet.writer, fleet.readers[0])
        let url: String, command: ClientCommand
        switch kind {
        case .key:
            url = fleet.url("\(name)-key", index)
            command = .purge(key: url)
        case .tag:
            url = fleet.origin.baseURL + "/items/\(name)-\(index)"
            command = .purgeTag(tag: "item-\(name)-\(index)")
        case .prefix:
            url = fleet.url("\(name)-prefix-\(index)", 0)
            command = .purgePrefix(prefix: String(url.dropLast()))  // up to and with the `=`
        }
        var result = Round(kind: kind)
        guard let key = CacheKey(method: "GET", uri: url) else {
            result.failure = "not a cache key: \(url)"
            return result
        }
        try await fleet.fill([url], expected: 1)  // the previous round's purge emptied the tier
        let outcome = try await reader.data(from: url).outcome
        guard outcome == .hit, await !reader.store.variants(for: key).isEmpty else {
            result.failure = "the reader's fetch was a \(outcome), not a shared hit it holds: nothing to purge"
            return result
        }

        // This round's purge, not a late one of an earlier round that timed out.
        let ofThisRound: @Sendable (PurgeScope) -> Bool = { scope in
            switch (command, scope) {
            case (.purge, .key(let purgedKey)): purgedKey == key
            case (.purgeTag(let tag), .tag(let purgedTag)): purgedTag == tag
            case (.purgePrefix(let prefix), .prefix(let purgedPrefix)): purgedPrefix == prefix
            default: false
            }
        }
        let subscription = await reader.subscribe(.lossless(bufferSize: 10_000), snapshot: false)
        let (arrival, start, performed) = await withTaskGroup(of: Arrival.self) { group in
            group.addTask {
                for await event in subscription {
                    if case .purged(let purged) = event.kind, purged.origin == origin, ofThisRound(purged.scope) {
                        return .purged(.now, count: purged.count)
                    }
                }
                return .ended
            }
            group.addTask {
                try? await Task.sleep(for: patience)
                return .timedOut
            }
            let start = ContinuousClock.now
            let performed = await writer.perform(command)
            let commandTime = ContinuousClock.now - start
            let first = await group.next() ?? .ended
            subscription.finish()
            group.cancelAll()
            return (first, start, (performed, commandTime))
        }
        result.command = performed.1
        if !performed.0.succeeded || !performed.0.message.contains("other instances told") {
            result.failure = "the writer's purge did not reach the shared tier: \(performed.0.message)"
        }
        switch arrival {
        case .purged(let instant, let count):
            result.propagation = instant - start
            if count != 1 { result.failure = result.failure ?? "the reader's purge event says \(count) entries, not 1" }
        case .timedOut:
            result.failure = result.failure ?? "the reader published no purge from \(origin) within \(patience)"
        case .ended:
            result.failure = result.failure ?? "the reader's event stream ended before its purge event"
        }
        if await !reader.store.variants(for: key).isEmpty {
            result.failure = result.failure ?? "the reader still holds \(url) after the purge"
        }
        return result
    }

    private static func seconds(_ duration: Duration) -> Double { duration.seconds }

    private static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }

    private static func ms(_ duration: Duration) -> String { ms(duration.seconds) }
}
