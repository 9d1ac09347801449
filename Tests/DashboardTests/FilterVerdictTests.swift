import CacheEvents
import HTTPCaching
import Testing
import TrafficFilter
@testable import Dashboard

/// `RequestLog.serials(matching:)` remembers a filter's verdicts between frames: it must list
/// exactly what matching every record again lists, after appends, in-place changes, overwrites
/// in the ring, another filter, and copies of the log that go different ways.
@Suite("Filter verdicts remembered by the request log")
struct FilterVerdictTests {
    private static func record(_ id: Int) -> RequestRecord {
        RequestRecord(id: UInt64(id), started: Double(id), method: "GET", url: "http://h/\(id)", cacheKey: "", policy: "")
    }

    private static func finish(_ log: inout RequestLog, serial: Int, outcome: CacheOutcome) {
        log.update(serial: serial) { record in
            record.finished = RequestFinished(
                status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 0, outcome: outcome, reason: "r")
        }
    }

    private static func expectSame(_ log: RequestLog, _ filter: Filter, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(log.serials(matching: filter) == log.serials { filter.matches($0) }, sourceLocation: sourceLocation)
    }

    @Test("appends, changes in place, overwrites and a second filter")
    func followsChanges() throws {
        let misses = try Filter("outcome:miss")
        let sevens = try Filter("url~7")
        var log = RequestLog(capacity: 50)
        for id in 0..<40 { log.append(Self.record(id)) }
        Self.expectSame(log, misses)
        #expect(log.serials(matching: misses).isEmpty)
        for serial in stride(from: 0, to: 40, by: 3) { Self.finish(&log, serial: serial, outcome: .miss) }
        Self.expectSame(log, misses)
        #expect(log.serials(matching: misses).count == 14)
        Self.finish(&log, serial: 3, outcome: .hit)  // a verdict that must change
        Self.expectSame(log, misses)
        #expect(!log.serials(matching: misses).contains(3))
        for id in 40..<130 { log.append(Self.record(id)) }  // the ring wraps: old slots reused
        for serial in stride(from: 90, to: 130, by: 2) { Self.finish(&log, serial: serial, outcome: .miss) }
        Self.expectSame(log, misses)
        Self.expectSame(log, sevens)
        Self.expectSame(log, misses)
    }

    @Test("copies that go different ways each get their own verdicts")
    func divergingCopies() throws {
        let misses = try Filter("outcome:miss")
        var original = RequestLog(capacity: 20)
        for id in 0..<10 { original.append(Self.record(id)) }
        Self.expectSame(original, misses)
        var copy = original
        Self.finish(&original, serial: 5, outcome: .miss)
        Self.finish(&copy, serial: 5, outcome: .hit)
        copy.append(Self.record(10))
        Self.finish(&copy, serial: 10, outcome: .miss)
        original.append(Self.record(99))
        #expect(original.serials(matching: misses) == [5])
        #expect(copy.serials(matching: misses) == [10])
        #expect(original.serials(matching: misses) == [5])
        Self.expectSame(original, misses)
        Self.expectSame(copy, misses)
    }

    @Test("the remembered verdicts are bookkeeping: equal logs stay equal")
    func equality() throws {
        var a = RequestLog(capacity: 5)
        var b = RequestLog(capacity: 5)
        for id in 0..<3 {
            a.append(Self.record(id))
            b.append(Self.record(id))
        }
        _ = a.serials(matching: try Filter("outcome:miss"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}
