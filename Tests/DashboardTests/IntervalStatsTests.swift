import CacheEvents
import CacheStore
import Foundation
import SessionLog
import Testing
import TerminalUI
@testable import Dashboard

/// `--stats-every SECONDS --json`: the lines parse, carry the documented fields, end where the
/// session clock passes each interval, and say what the header says for the same events.
@Suite("Interval stats (NDJSON)")
struct IntervalStatsTests {
    /// The fields docs/cli.md documents, exactly.
    static let documentedFields: Set<String> = [
        "format", "version", "time", "interval", "final", "events", "requests", "intervalRequests", "outcomes", "coalesced",
        "backgroundRefreshes", "inFlight", "requestsPerSecond", "hitRatio", "byteHitRatio", "bytesFromCache",
        "bytesFromNetwork", "bytesSaved", "evictions", "evictionsPerSecond", "store", "latency", "droppedEvents",
    ]

    /// The sample session through 5-second intervals, and the last line.
    private func lines() throws -> [IntervalStats] {
        var intervals = try StatsIntervals(every: 5)
        var lines: [IntervalStats] = []
        for event in SampleSession.events { lines += intervals.apply(event) }
        if let last = intervals.finish() { lines.append(last) }
        return lines
    }

    @Test("One line per interval end on the events' clock, then a final one; each parses with the documented fields")
    func linesParse() throws {
        let lines = try lines()
        #expect(lines.map(\.time) == [5, 10, 11.0001])
        #expect(lines.map(\.final) == [false, false, true])
        #expect(lines.map(\.intervalRequests) == [4, 6, 0])
        for line in lines {
            let text = try line.jsonLine()
            #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "one line each: \(text)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Self.documentedFields)
            #expect(object["version"] as? Int == 1 && object["format"] as? String == "cachescope-stats")
            let latency = try #require(object["latency"] as? [String: Any])
            #expect(Set(latency.keys) == ["all", "hit", "stale", "revalidated", "modified", "miss", "bypass", "error"])
            let decoded = try JSONDecoder().decode(IntervalStats.self, from: Data(text.utf8))
            #expect(decoded == line)
        }
        // Undefined figures are null, never left out.
        var early = try StatsIntervals(every: 1)
        _ = early.apply(CacheEvent(seq: 1, time: 0.5, requestID: nil, kind: .dropped(Dropped(count: 0))))
        let last = early.finish()
        let empty = try #require(last).jsonLine()
        #expect(empty.contains("\"hitRatio\":null") && empty.contains("\"store\":null") && empty.contains("\"p50\":null"))
    }

    /// `replay` of a log holding only its header printed nothing: a script reading the last
    /// line got none.
    @Test("With no event at all, the final line is one of zeros at time 0")
    func finalLineWithoutEvents() throws {
        var intervals = try StatsIntervals(every: 1)
        let finished = intervals.finish()
        let line = try #require(finished)
        #expect(line.final && line.time == 0 && line.requests == 0)
    }

    @Test("Each line says what the header says at its time for the same events")
    func matchesHeader() throws {
        for line in try lines() {
            var state = DashboardState(mode: .live)
            for event in SampleSession.events where event.time < line.time || line.final { state.apply(event) }
            let header = try render(state, size: TerminalSize(columns: 200, rows: 60), now: line.time).text
                .components(separatedBy: "\n").prefix(4).joined(separator: "\n")
            let all = try #require(line.latency["all"])
            let expected = [
                String(format: "%.1f req/s", line.requestsPerSecond),
                "hit ratio \(Format.percent(line.hitRatio))",
                "byte hit ratio \(Format.percent(line.byteHitRatio))",
                "p50 \(Format.latency(all.p50)) p99 \(Format.latency(all.p99))",
                "\(line.requests) requests",
                "✓ hit \(line.outcomes.hit)", "✗ miss \(line.outcomes.miss)", "! error \(line.outcomes.error)",
                "⇉ coalesced \(line.coalesced)",
                "from cache \(Format.bytes(line.bytesFromCache))", "from network \(Format.bytes(line.bytesFromNetwork))",
                String(format: "capacity %.1f", line.evictionsPerSecond.capacity),
                "entries \(line.store?.entryCount ?? -1)",
            ]
            for figure in expected {
                #expect(header.contains(figure), "at \(line.time): \(figure) not in\n\(header)")
            }
        }
    }

    @Test("An interval that is not a positive number is refused with what to give instead",
          arguments: [0, -1, Double.nan, Double.infinity])
    func badInterval(value: Double) {
        #expect {
            _ = try StatsIntervals(every: value)
        } throws: { error in
            "\(error)".hasPrefix("--stats-every must be a positive number of seconds (e.g. 1 or 0.5), not ")
        }
    }

    /// A tiny interval would never advance past a large session time (a hang), a huge one
    /// overflow the live ticker's period: both are refused, naming the accepted range.
    @Test("An interval below 10 ms or above a year is refused with the accepted range",
          arguments: [1e-20, 0.009, 365 * 86_400.0 + 1, 1e16])
    func intervalOutOfRange(value: Double) throws {
        #expect {
            _ = try StatsIntervals(every: value)
        } throws: { error in
            "\(error)" == "--stats-every must be from 0.01 to 31536000 seconds (a year), not \(value)"
        }
        _ = try StatsIntervals(every: 0.01)
        _ = try StatsIntervals(every: 365 * 86_400.0)
    }

    /// A log with a gap of years read at 10 ms would make billions of identical lines (the
    /// command ran for ever, holding them all): a quiet stretch gets its first 10,000 lines
    /// and its last.
    @Test("A quiet stretch of more than 10,000 intervals gets its first 10,000 lines and its last")
    func longQuietStretch() throws {
        var intervals = try StatsIntervals(every: 0.01)
        let event = { (seq: UInt64, time: Double) in CacheEvent(seq: seq, time: time, requestID: nil, kind: .dropped(Dropped(count: 0))) }
        #expect(intervals.apply(event(1, 0)).isEmpty)
        let lines = intervals.apply(event(2, 1e6))
        #expect(lines.count == StatsIntervals.longestQuietRun + 1)
        let times = lines.map(\.fields.time)
        #expect(abs(times[9_999] - 100) < 1e-6, "the first 10,000 lines, one per interval: \(times[9_999])")
        #expect(abs(times[10_000] - 1e6) < 0.011, "then the stretch's last end: \(times[10_000])")
        #expect(lines.allSatisfy { $0.fields.intervalRequests == 0 })
        // A stretch just within the limit gets every line.
        var short = try StatsIntervals(every: 1)
        _ = short.apply(event(1, 0))
        #expect(short.apply(event(2, 10_000.5)).count == StatsIntervals.longestQuietRun)
    }

    @Test("A quiet live session still gets a line per interval, on the clock learned from the events")
    func ticks() throws {
        var intervals = try StatsIntervals(every: 1)
        #expect(intervals.tick(wall: 100).isEmpty, "no line before the first event")
        // The event is stamped 10.5 s into the session and arrives at wall time 3.
        _ = intervals.apply(CacheEvent(seq: 1, time: 10.5, requestID: nil, kind: .dropped(Dropped(count: 0))), wall: 3)
        #expect(intervals.tick(wall: 3.25).isEmpty)
        let quiet = intervals.tick(wall: 6)   // session time 13.5
        #expect(quiet.map(\.time) == [11, 12, 13])
        #expect(intervals.finish(wall: 6.25)?.time == 13.75)
    }
}
