import TestFixtures
import CacheEvents
import SessionLog
import Foundation
import Testing
import HTTPCaching

/// Problems confined to single lines: the reader keeps everything else, reports each problem
/// with file and line, and counts the skipped lines.
@Suite("Session log reader: damaged lines")
struct SessionLogReaderWarningTests {
    static let header = SessionLogReaderFatalTests.header
    static let line2 = #"{"seq":1,"t":0.5,"req":1,"kind":"lookup","verdict":"miss","reason":"not in cache"}"#
    static let line3 = #"{"seq":2,"t":0.75,"kind":"error","message":"origin unreachable"}"#
    static let line4 = #"{"seq":3,"t":1.25,"kind":"dropped","count":4}"#

    private func load(_ name: String, _ lines: [String], trailingNewline: Bool = true) throws -> (SessionLog, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, lines.joined(separator: "\n") + (trailingNewline ? "\n" : ""))
        return (try SessionLogReader.load(path), path)
    }

    @Test("garbage in the middle: the line is skipped, the rest kept")
    func garbageLine() throws {
        let (log, path) = try load("garbage.jsonl", [Self.header, Self.line2, "xyz not json", Self.line3])
        #expect(log.events.map(\.seq) == [1, 2])
        #expect(log.skippedLines == 1)
        #expect(log.warnings == [.notJSON(file: path, line: 3, detail: "unexpected character 'x' at column 1")])
        #expect(log.warnings.map(\.description) == ["\(path):3: not JSON (unexpected character 'x' at column 1); line skipped"])
        #expect(log.skippedSummary == "\(path): 1 of 4 lines skipped (1 bad, 0 of unknown kinds)")
    }

    @Test("a line cut short in the middle of the file")
    func brokenLineInMiddle() throws {
        let (log, path) = try load("cut.jsonl", [Self.header, #"{"seq":1,"t":0.5,"kind":"err"#, Self.line3])
        #expect(log.events.map(\.seq) == [2])
        #expect(log.warnings.map(\.description) == ["\(path):2: not JSON (unexpected end of input at column 29); line skipped"])
    }

    @Test("truncated last line (writer killed mid-line)")
    func truncatedLastLine() throws {
        let (log, path) = try load("truncated.jsonl", [Self.header, Self.line2, Self.line3, #"{"seq":3,"t":1.25,"kind":"drop"#], trailingNewline: false)
        #expect(log.events.map(\.seq) == [1, 2])
        #expect(log.skippedLines == 1)
        #expect(log.warnings == [.truncatedLastLine(file: path, line: 4)])
        #expect(log.warnings.map(\.description) == ["\(path):4: last line is incomplete (the writer stopped mid-line); line skipped"])
    }

    @Test("a complete last line without a newline is kept")
    func lastLineWithoutNewline() throws {
        let (log, _) = try load("nonewline.jsonl", [Self.header, Self.line2, Self.line3], trailingNewline: false)
        #expect(log.events.map(\.seq) == [1, 2])
        #expect(log.warnings.isEmpty)
    }

    @Test("over-long line (> 1 MiB) in the middle is skipped without being held")
    func overLongLine() throws {
        let long = #"{"seq":9,"t":1,"kind":"error","message":""# + String(repeating: "a", count: 1_100_000) + #""}"#
        let (log, path) = try load("long.jsonl", [Self.header, Self.line2, long, Self.line3, long, Self.line4])
        #expect(log.events.map(\.seq) == [1, 2, 3])
        #expect(log.skippedLines == 2)
        let bytes = long.utf8.count
        #expect(log.warnings == [.lineTooLong(file: path, line: 3, bytes: bytes), .lineTooLong(file: path, line: 5, bytes: bytes)])
        #expect(log.warnings[0].description == "\(path):3: line is \(bytes) bytes, longer than the 1048576 byte limit; line skipped")
    }

    @Test("a line of exactly 1 MiB is still read")
    func lineAtLimit() throws {
        let prefix = #"{"seq":9,"t":1,"kind":"error","message":""#
        let suffix = #""}"#
        let filler = String(repeating: "b", count: SessionLogReader.maximumLineLength - prefix.utf8.count - suffix.utf8.count)
        let (log, _) = try load("limit.jsonl", [Self.header, prefix + filler + suffix])
        #expect(log.warnings.isEmpty)
        #expect(log.events.count == 1)
    }

    @Test("non-UTF-8 bytes are replaced and the event kept")
    func invalidUTF8() throws {
        let directory = try TemporaryDirectory()
        var bytes = Array((Self.header + "\n" + Self.line2 + "\n").utf8)
        bytes += Array(#"{"seq":2,"t":0.75,"kind":"error","message":"bad "#.utf8) + [0xFF, 0xFE] + Array(#" bytes"}"#.utf8) + [0x0A]
        bytes += Array((Self.line4 + "\n").utf8)
        let path = try directory.write("latin1.jsonl", bytes: bytes)
        let log = try SessionLogReader.load(path)
        #expect(log.events.map(\.seq) == [1, 2, 3])
        #expect(log.events[1].kind == .error(ErrorInfo(message: "bad \u{FFFD}\u{FFFD} bytes")))
        #expect(log.skippedLines == 0)
        #expect(log.warnings.map(\.description) == ["\(path):3: invalid UTF-8 at column 49, replaced by U+FFFD; event kept"])
    }

    @Test("non-UTF-8 bytes outside strings make the line not JSON")
    func invalidUTF8OutsideString() throws {
        let directory = try TemporaryDirectory()
        let bytes = Array((Self.header + "\n").utf8) + [0xC3, 0x28, 0x0A] + Array((Self.line3 + "\n").utf8)
        let path = try directory.write("binary.jsonl", bytes: bytes)
        let log = try SessionLogReader.load(path)
        #expect(log.events.map(\.seq) == [2])
        #expect(log.warnings.map(\.description) == ["\(path):2: not JSON (invalid UTF-8 at column 1); line skipped"])
    }

    @Test("out-of-order timestamps: file order kept, times clamped, reported once")
    func outOfOrderTimes() throws {
        let lines = [
            Self.header,
            #"{"seq":1,"t":5,"kind":"dropped","count":1}"#,
            #"{"seq":2,"t":3,"kind":"dropped","count":2}"#,
            #"{"seq":3,"t":7,"kind":"dropped","count":3}"#,
            #"{"seq":4,"t":6,"kind":"dropped","count":4}"#,
        ]
        let (log, path) = try load("clock.jsonl", lines)
        #expect(log.events.map(\.seq) == [1, 2, 3, 4])
        #expect(log.events.map(\.time) == [5, 5, 7, 7])
        #expect(log.clampedEvents == 2)
        #expect(log.skippedLines == 0)
        #expect(log.warnings == [.timeWentBackwards(file: path, line: 3, time: 3, previous: 5)])
        #expect(log.warnings[0].description == "\(path):3: time goes backwards (t=3.0 after t=5.0); times are clamped from here on so they never decrease (reported once)")
        #expect(log.skippedSummary == "\(path): 2 event times clamped")
    }

    @Test("unknown event kinds are skipped and counted per kind")
    func unknownKinds() throws {
        let lines = [
            Self.header,
            Self.line2,
            #"{"seq":2,"t":0.6,"kind":"hologram","beam":true}"#,
            #"{"seq":3,"t":0.7,"kind":"teleported","to":"mars"}"#,
            #"{"seq":4,"t":0.8,"kind":"hologram","beam":false}"#,
            Self.line4,
        ]
        let (log, path) = try load("future.jsonl", lines)
        #expect(log.events.map(\.seq) == [1, 3])
        #expect(log.skippedLines == 3)
        #expect(log.unknownKinds == ["hologram": 2, "teleported": 1])
        #expect(log.warnings.map(\.description) == [
            "\(path):3: unknown event kind \"hologram\" (written by a newer CacheScope?); 2 lines of this kind skipped",
            "\(path):4: unknown event kind \"teleported\" (written by a newer CacheScope?); 1 line of this kind skipped",
        ])
        #expect(log.skippedSummary == "\(path): 3 of 6 lines skipped (0 bad, 3 of unknown kinds)")
    }

    @Test("unknown fields are ignored, in the header and in events")
    func unknownFields() throws {
        let lines = [
            #"{"format":"cachescope-session","version":1,"redacted":false,"producer":"x","hostname":"build-7","extra":{"a":[1,2]}}"#,
            #"{"seq":1,"t":0.5,"req":1,"kind":"lookup","verdict":"miss","reason":"not in cache","colour":"blue","nested":{"deep":[true,null]}}"#,
        ]
        let (log, _) = try load("extra.jsonl", lines)
        #expect(log.warnings.isEmpty)
        #expect(log.events == [CacheEvent(seq: 1, time: 0.5, requestID: 1, kind: .lookup(Lookup(verdict: .miss, reason: "not in cache")))])
    }

    @Test("JSON that is not an event is reported with what is wrong")
    func notAnEvent() throws {
        let lines = [
            Self.header,
            #"[1,2,3]"#,
            #"{"seq":2,"t":0.5,"kind":"lookup","reason":"no verdict"}"#,
            #"{"seq":3,"t":"soon","kind":"error","message":"x"}"#,
            #"{"seq":4,"t":1,"kind":"lookup","verdict":"maybe","reason":"x"}"#,
            Self.line4,
        ]
        let (log, path) = try load("notevents.jsonl", lines)
        #expect(log.events.map(\.seq) == [3])
        #expect(log.skippedLines == 4)
        #expect(log.warnings.map(\.description) == [
            "\(path):2: not an event (expected an object, found an array); line skipped",
            "\(path):3: not an event (missing field \"verdict\"); line skipped",
            "\(path):4: not an event (field \"t\" should be a number); line skipped",
            "\(path):5: not an event (field \"verdict\" has a value this version does not know); line skipped",
        ])
    }

    /// Each was "not an event (The given data was not valid JSON.)", though the line is JSON.
    @Test("a counter or number its field cannot hold is named, not called bad JSON")
    func numbersOutOfRange() throws {
        let lines = [
            Self.header,
            #"{"seq":-3,"t":0.5,"kind":"error","message":"x"}"#,
            #"{"seq":2,"t":0.5,"req":99999999999999999999,"kind":"error","message":"x"}"#,
            #"{"seq":3,"t":0.5,"req":1,"kind":"requestFinished","status":200,"latency":0.03,"bytesFromNetwork":1e30,"bytesFromCache":0,"outcome":"miss","reason":"r","coalesced":false}"#,
            Self.line4,
        ]
        let (log, path) = try load("numbers.jsonl", lines)
        #expect(log.events.map(\.seq) == [3])
        #expect(log.warnings.map(\.description) == [
            "\(path):2: not an event (field \"seq\" is not a whole number from 0 to 18446744073709551615); line skipped",
            "\(path):3: not an event (field \"req\" is not a whole number from 0 to 18446744073709551615); line skipped",
            "\(path):4: not an event (a number in it does not fit its field (negative, a fraction or too large where a whole number belongs)); line skipped",
        ])
    }

    @Test("blank lines and CRLF line ends are accepted silently")
    func blankLinesAndCRLF() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("crlf.jsonl", Self.header + "\r\n" + Self.line2 + "\r\n\r\n   \n" + Self.line3 + "\r\n")
        let log = try SessionLogReader.load(path)
        #expect(log.events.map(\.seq) == [1, 2])
        #expect(log.warnings.isEmpty)
        #expect(log.skippedLines == 0)
    }

    @Test("a bad startedAt is reported and the log still read")
    func badStartedAt() throws {
        let (log, path) = try load("start.jsonl", [#"{"format":"cachescope-session","version":1,"startedAt":"yesterday"}"#, Self.line2])
        #expect(log.header.startedAt == nil)
        #expect(log.events.count == 1)
        #expect(log.warnings.map(\.description) == ["\(path):1: header field \"startedAt\" is not an ISO 8601 time (\"yesterday\"); ignored"])
    }

    @Test("many bad lines: warnings are capped, every skipped line counted")
    func manyBadLines() throws {
        let lines = [Self.header] + Array(repeating: "garbage", count: 1500) + [Self.line2]
        let (log, _) = try load("flood.jsonl", lines)
        #expect(log.events.count == 1)
        #expect(log.skippedLines == 1500)
        #expect(log.warnings.count == SessionLogReader.maximumWarnings)
        #expect(log.suppressedWarnings == 500)
    }

    @Test("events of one request are found through the index")
    func requestIndex() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("index.jsonl")
        let writer = try SessionLogWriter(path: path, header: SessionLogHeader(startedAt: nil, redacted: false))
        writer.write(contentsOf: SampleSession.events)
        try writer.close()
        let log = try SessionLogReader.load(path)
        #expect(log.requestIDs == Array(1...9))
        #expect(log.events(ofRequest: 3).map(\.kind.name) == ["requestStarted", "lookup", "revalidationSent", "notModified", "served", "requestFinished"])
        #expect(log.events(ofRequest: 42).isEmpty)
        #expect(log.position(atTime: 0.25) == 2)
        #expect(log.position(atTime: -1) == 0)
        #expect(log.position(atTime: 1e9) == log.events.count)
    }

    @Test("a figure no cache produces — a byte count past 2^50, a negative size, a TTL of 1e300 — is a bad line, named with its field; summing the rest cannot overflow", arguments: [
        (#"{"seq":1,"t":0.5,"req":1,"kind":"requestFinished","status":200,"latency":0.1,"bytesFromNetwork":9223372036854775807,"bytesFromCache":0,"outcome":"miss","reason":"r","coalesced":false}"#,
         #"field "bytesFromNetwork" is 9223372036854775807, not an amount an event may carry (0 to 1125899906842624)"#),
        (#"{"seq":1,"t":0.5,"kind":"evicted","entry":{"key":"GET http://a/","variant":""},"reason":"capacity","tier":"memory","size":-5}"#,
         #"field "size" is -5, not an amount an event may carry (0 to 1125899906842624)"#),
        (#"{"seq":1,"t":0.5,"kind":"dropped","count":9223372036854775807}"#,
         #"field "count" is 9223372036854775807, not an amount an event may carry (0 to 1125899906842624)"#),
        (#"{"seq":1,"t":0.5,"kind":"stored","entry":{"key":"GET http://a/","variant":""},"tier":"memory","size":10,"ttl":1e300,"status":200}"#,
         #"field "ttl" is 1e+300, not a duration an event may carry (at most 1e12 seconds either side of zero)"#),
        (#"{"seq":1,"t":0.5,"kind":"entries","entries":[{"entry":{"key":"GET http://a/","variant":""},"tier":"disk","size":9223372036854775807,"age":1,"hits":0,"idle":0,"status":200}]}"#,
         #"field "entries[0].size" is 9223372036854775807, not an amount an event may carry (0 to 1125899906842624)"#),
        (#"{"seq":1,"t":0.5,"req":1,"kind":"lookup","verdict":"fresh","reason":"r","age":-1e13}"#,
         #"field "age" is -10000000000000.0, not a duration an event may carry (at most 1e12 seconds either side of zero)"#),
    ])
    func impossibleFigures(line: String, problem: String) throws {
        let (log, path) = try load("figures.jsonl", [Self.header, line, Self.line3])
        #expect(log.events.map(\.seq) == [2])
        #expect(log.warnings.map(\.description) == ["\(path):2: not an event (\(problem)); line skipped"])
    }

    @Test("the largest figures a cache may report are kept, and 8,193 of them — past Int.max together — add up without a trap (saturating)")
    func largestFigures() throws {
        let most = CacheEvent.possibleAmounts.upperBound
        let lines = (1...8_193).map { seq in
            #"{"seq":\#(seq),"t":0.5,"req":\#(seq),"kind":"requestFinished","status":200,"latency":0.1,"bytesFromNetwork":\#(most),"bytesFromCache":\#(most),"outcome":"miss","reason":"r","coalesced":false}"#
        }
        let (log, _) = try load("largest.jsonl", [Self.header] + lines)
        #expect(log.events.count == 8_193 && log.warnings.isEmpty)
        var counters = TrafficCounters()
        for event in log.events { counters.apply(event) }
        #expect(counters.bytesFromNetwork == Int.max && counters.bytesFromCache == Int.max)
        #expect(counters.requests == 8_193)
        // And what is worked out from the sums: no trap either.
        #expect(counters.bytesServed == Int.max && counters.byteHitRatio == 0.5)
        #expect(SessionSummary(folding: log.events).text.contains("Byte hit ratio: 50.0%"))
    }

    @Test("a line written twice in a row counts once, with a warning naming both lines; a store snapshot repeating the last seq is kept")
    func repeatedLine() throws {
        let finished = #"{"seq":3,"t":1,"req":1,"kind":"requestFinished","status":200,"latency":0.1,"bytesFromNetwork":5,"bytesFromCache":0,"outcome":"miss","reason":"r","coalesced":false}"#
        let stats = #"{"seq":3,"t":1,"kind":"storeStats","memoryUsed":1,"memoryCapacity":2,"diskUsed":0,"diskCapacity":0,"entries":1}"#
        let (log, path) = try load("twice.jsonl", [Self.header, Self.line2, finished, finished, stats, stats, Self.line4])
        #expect(log.events.map(\.kind.name) == ["lookup", "requestFinished", "storeStats", "storeStats", "dropped"])
        #expect(log.skippedLines == 1)
        #expect(log.warnings.map(\.description) == ["\(path):4: the same event as line 3 (a line written twice); line skipped"])
    }
}
