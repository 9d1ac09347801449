@testable import CacheScopeApp
import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import SessionLog
import Testing

/// `cachescope replay LOG --what-if …`: a session recorded from a real client talking to the
/// demo origin over loopback (on a clock the test moves), run again through a real client and
/// store configured differently.
@Suite("what-if replay: the recorded origin answers through a differently configured cache", .timeLimit(.minutes(2)))
struct WhatIfReplayTests {
    /// The requests of the recorded session: (seconds after the start, path).
    static let script: [(Double, String)] = [
        (0, "/max-age/10"), (0.5, "/no-cache"), (1, "/large/100"), (1.5, "/items/1"),
        (2, "/max-age/10"), (3, "/no-cache"), (4, "/large/100"), (5, "/no-store"),
        (12, "/max-age/10"), (13, "/no-cache"), (14, "/large/100"), (15, "/no-store"), (16, "/max-age/10"),
        (80, "/max-age/10"), (81, "/large/100"), (82, "/items/1"),
    ]

    /// Records `script` (seconds after the start, path on the demo origin; by default
    /// ``script``) through a client on a simulated clock into `scratch/NAME` and returns its path.
    static func record(in scratch: Scratch, name: String = "session.jsonl", script: [(Double, String)] = Self.script) async throws -> String {
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let clock = SimulatedClock(start: start)
        let origin = try await DemoOrigin.start(now: { clock.now })
        var configuration = CachingClientConfiguration()
        configuration.now = { clock.now }
        let client = try await CachingClient(configuration: configuration)
        let path = scratch.path(name)
        let recorder = try SessionRecorder(bus: client.events, path: path, initial: await client.snapshotEvents())
        for (offset, path) in script {
            clock.set(start.addingTimeInterval(offset))
            _ = try await client.data(from: origin.baseURL + path)
            await client.finishBackgroundRefreshes(within: .seconds(10))  // a refresh ends before the next request
        }
        _ = try await recorder.close()
        try await client.shutdown()
        try await origin.stop()
        return path
    }

    static func whatIf(_ path: String, _ assignments: [String]) async throws -> WhatIfReport {
        try await WhatIfReplay.run(
            InputPath(path, kind: .sessionLogOrHAR, option: "FILE"), changes: WhatIfChanges(parsing: assignments))
    }

    @Test("the recorded configuration reproduces the recorded counters exactly")
    func sameConfiguration() async throws {
        let scratch = try Scratch()
        let path = try await Self.record(in: scratch)
        let report = try await Self.whatIf(path, [])
        let recorded = report.recorded.counters
        #expect(recorded.requests == Self.script.count)
        #expect(recorded.count(.hit) > 0 && recorded.count(.revalidated) > 0 && recorded.count(.miss) > 0, "a script that exercises the cache")
        #expect(report.whatIf == report.recorded)
        #expect(report.changedRequests == 0 && report.changedURLs.isEmpty)
        #expect(report.text.contains("Requests whose outcome changed: 0 of 16"))
    }

    /// A log cut off mid-request compared its unfinished request as an `error`, listing a
    /// change for a request the recorded column never counted, with no word about the cut.
    @Test("a log cut off after a request's start compares only the requests that finished, and says so")
    func cutOff() async throws {
        let scratch = try Scratch()
        let path = try await Self.record(in: scratch)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Cut after the last request's start, in the middle of the next line.
        let lastStart = try #require(lines.lastIndex { $0.contains(#""kind":"requestStarted""#) })
        lines = Array(lines[...lastStart]) + [String(lines[lastStart + 1].prefix(20))]
        let cut = scratch.path("cut.jsonl")
        try lines.joined(separator: "\n").write(toFile: cut, atomically: false, encoding: .utf8)
        let report = try await Self.whatIf(cut, [])
        #expect(report.changedRequests == 0 && report.changedURLs.isEmpty, "\(report.text)")
        #expect(report.text.contains("Requests whose outcome changed: 0 of \(Self.script.count - 1)"), "\(report.text)")
        #expect(report.notes.contains("1 recorded request has no end in the log (it ends before the answer, or the line was skipped) and is not compared"), "\(report.notes)")
        #expect(report.notes.contains { $0.hasPrefix("1 line of the log was skipped (unreadable") }, "\(report.notes)")
        // Both columns count the same requests: the unfinished one is not run again either.
        #expect(report.whatIf.counters.requests == report.recorded.counters.requests, "\(report.text)")
        #expect(report.whatIf.counters.requests == Self.script.count - 1, "\(report.text)")
    }

    @Test("stale-if-error: the recorded origin failure is failed again, so the same configuration serves stale again")
    func staleIfErrorReproduced() async throws {
        let scratch = try Scratch()
        // 200 once, then the origin answers 500: the stale copy stands in (stale-if-error=300).
        let path = try await Self.record(in: scratch, name: "sie.jsonl", script: [0, 5, 10].map { ($0, "/sie/1/300") })
        let log = try SessionLogReader.load(path)
        let failures = log.events.compactMap { event -> Served? in
            guard case .served(let served) = event.kind, served.originError != nil else { return nil }
            return served
        }
        #expect(failures.count == 2 && failures.allSatisfy { $0.originStatus == 500 && $0.outcome == .stale })
        let report = try await Self.whatIf(path, [])
        #expect(report.recorded.counters.count(.stale) == 2)
        #expect(report.whatIf.counters.count(.stale) == 2, "the replayed origin fails again: stale-if-error again")
        #expect(report.changedRequests == 0)
        #expect(report.whatIf.counters.bytesFromNetwork == report.recorded.counters.bytesFromNetwork, "the error pages' bytes too")
    }

    @Test("stale-while-revalidate: the refresh a stale answer starts ends before the next request, every time")
    func staleWhileRevalidateReproduced() async throws {
        let scratch = try Scratch()
        // Fresh for 2 s, then stale (refreshed in the background) for 30: miss, stale, hit.
        let path = try await Self.record(in: scratch, name: "swr.jsonl", script: [(0, "/swr/2/30"), (3, "/swr/2/30"), (3.5, "/swr/2/30")])
        for _ in 0..<5 {
            let report = try await Self.whatIf(path, [])
            #expect(report.recorded.counters.count(.stale) == 1 && report.recorded.counters.count(.hit) == 1, "\(report.text)")
            #expect(report.whatIf == report.recorded, "\(report.text)")
            #expect(report.changedRequests == 0)
        }
    }

    @Test("a smaller memory tier sends more requests to the origin and hits less")
    func smallerMemory() async throws {
        let scratch = try Scratch()
        let path = try await Self.record(in: scratch)
        let report = try await Self.whatIf(path, ["memory=64K"])
        #expect(report.whatIf.originRequests > report.recorded.originRequests)
        #expect(report.whatIf.counters.bytesFromNetwork > report.recorded.counters.bytesFromNetwork)
        #expect((report.whatIf.counters.hitRatio ?? 1) < (report.recorded.counters.hitRatio ?? 0))
        // 100 KiB is more than a 64 KiB tier keeps of one entry (5 %): every request of it
        // misses, and it is the URL that changed most.
        let large = try #require(report.changedURLs.first)
        #expect(large.url.hasSuffix("/large/100") && large.requests == 4 && large.changed == 3)
        #expect(large.transitions.map { "\($0.from)→\($0.to) \($0.count)" } == ["hit→miss 2", "revalidated→miss 1"])
        #expect(report.text.contains("What-if for \(path): memory=64.0 KiB"))
    }

    @Test("a minimum TTL turns revalidations and expired misses into hits")
    func minimumTTL() async throws {
        let scratch = try Scratch()
        let path = try await Self.record(in: scratch)
        let report = try await Self.whatIf(path, ["min-ttl=1h"])
        #expect(report.whatIf.originRequests < report.recorded.originRequests)
        #expect(report.whatIf.counters.count(.hit) > report.recorded.counters.count(.hit))
        #expect(report.whatIf.counters.count(.revalidated) < report.recorded.counters.count(.revalidated))
        let maxAge = try #require(report.changedURLs.first { $0.url.hasSuffix("/max-age/10") })
        #expect(maxAge.transitions.allSatisfy { $0.to == .hit })
        // no-cache still revalidates every time unless it is ignored too.
        #expect(!report.changedURLs.contains { $0.url.hasSuffix("/no-cache") })
        let both = try await Self.whatIf(path, ["min-ttl=1h", "ignore-no-cache=yes"])
        let noCache = try #require(both.changedURLs.first { $0.url.hasSuffix("/no-cache") })
        #expect(noCache.transitions.map(\.to) == [.hit])
    }

    @Test("a log without the origin's 304 header fields is too old to simulate, and says so")
    func tooOld() async throws {
        let scratch = try Scratch()
        let path = try await Self.record(in: scratch)
        // What the recorder wrote before notModified carried the 304's fields.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            guard line.contains("\"kind\":\"notModified\""), let headers = line.range(of: ",\"headers\":") else { return String(line) }
            return String(line[..<headers.lowerBound]) + "}"
        }
        let old = try scratch.file("old.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(lines.contains { $0.contains("notModified") }, "the session has revalidations")
        do {
            _ = try await Self.whatIf(old, ["memory=1M"])
            Issue.record("an old log was simulated")
        } catch let error as WhatIfError {
            guard case .logTooOld = error else { throw error }
            #expect(error.description.hasPrefix("\(old) is too old to simulate: its 304 answers (notModified, first at seq "))
            #expect(error.description.contains("record the session again"))
        }
        // The same old log still replays and summarises.
        #expect(try SessionLogReader.load(old).events.count > 0)
    }

    @Test(
        "an unknown key or a bad value is named, with what is accepted",
        arguments: [
            (["colour=red"], "--what-if: unknown key \"colour\"; keys: memory=SIZE, disk=SIZE, mode=private|shared, policy=NAME, ignore-no-cache=yes|no, min-ttl=DURATION"),
            (["memory"], "--what-if takes KEY=VALUE, not \"memory\"; keys: memory=SIZE, disk=SIZE, mode=private|shared, policy=NAME, ignore-no-cache=yes|no, min-ttl=DURATION"),
            (["memory=lots"], "--what-if memory=lots: memory must be a size such as 1048576, 512K, 64M or 2G"),
            (["disk=-1"], "--what-if disk=-1: disk must be a size such as 1048576, 512K, 64M or 2G, or 0 for none"),
            (["mode=public"], "--what-if mode=public: mode must be private or shared"),
            (["policy=sometimes"], "--what-if policy=sometimes: policy must be one of protocol, reload, reload-all, cache-else-load, cache-only, revalidate"),
            (["ignore-no-cache=maybe"], "--what-if ignore-no-cache=maybe: ignore-no-cache must be yes or no"),
            (["min-ttl=5 minutes"], "--what-if min-ttl=5 minutes: min-ttl must be a duration such as 90, 30s, 5m, 2h or 1d, at most 100 years"),
            (["min-ttl=9223372036854775807"],
             "--what-if min-ttl=9223372036854775807: min-ttl must be a duration such as 90, 30s, 5m, 2h or 1d, at most 100 years"),
            (["min-ttl=5m", "min-ttl=1h"], "--what-if: min-ttl is given twice; give each key once"),
        ])
    func badArguments(_ assignments: [String], _ message: String) {
        #expect(throws: WhatIfError.self) { try WhatIfChanges(parsing: assignments) }
        do {
            _ = try WhatIfChanges(parsing: assignments)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("good arguments set what they name and leave the rest as recorded")
    func goodArguments() throws {
        let changes = try WhatIfChanges(parsing: ["memory=2M", "disk=0", "mode=shared", "policy=revalidate", "ignore-no-cache=yes", "min-ttl=5m"])
        #expect(changes.memoryCapacity == 2 << 20 && changes.diskCapacity == 0 && changes.mode == .shared)
        #expect(changes.policy == .reloadRevalidatingCacheData && changes.ignoresResponseNoCache == true)
        #expect(changes.minimumFreshness == .seconds(300))
        #expect(changes.description == "memory=2.0 MiB, disk=0 B, mode=shared, policy=revalidate, ignore-no-cache=yes, min-ttl=300s")
        #expect(try WhatIfChanges(parsing: []).description == "no change")
    }
}
