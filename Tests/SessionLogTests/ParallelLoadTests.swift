@testable import CacheEvents
@testable import SessionLog
import TestFixtures
import Foundation
import Testing

/// Large logs are split at line boundaries and parsed in parallel; any split must give the
/// very log a single pass gives — events, times, warnings, line numbers and counts.
@Suite("Session log reader: parallel parts", .timeLimit(.minutes(5)))
struct ParallelLoadTests {
    /// A log with damage everywhere: garbage, unknown kinds, times going backwards (often
    /// right where a part may begin), a bad UTF-8 byte, and a truncated last line.
    static func damagedLog(lines: Int) -> [UInt8] {
        var bytes = Array((SessionLogReaderFatalTests.header + "\n").utf8)
        var time = 0.0
        for index in 2...lines {
            let line: String
            switch index % 97 {
            case 13: line = "garbage \(index)"
            case 29: line = #"{"seq":\#(index),"t":\#(time),"kind":"futureKind\#(index % 3)","x":1}"#
            case 41, 42, 43:
                time -= 0.75
                line = #"{"seq":\#(index),"t":\#(time),"kind":"dropped","count":\#(index)}"#
            case 0: line = ""
            default:
                time += 0.125
                let event = SampleSession.events[index % SampleSession.events.count]
                var writer = JSONLineWriter()
                EventLineEncoder.encode(CacheEvent(seq: UInt64(index), time: time, requestID: event.requestID, kind: event.kind), redacting: false, into: &writer)
                line = String(decoding: writer.bytes.dropLast(), as: UTF8.self)
            }
            bytes += Array(line.utf8)
            if index == 500 { bytes += [0xFF] + Array(#"{"seq":0,"t":0,"kind":"error","message":"x"}"#.utf8) }  // not JSON: the byte lies outside any string
            bytes.append(0x0A)
        }
        bytes += Array(#"{"seq":1,"t":1,"kind":"err"#.utf8)
        return bytes
    }

    @Test("any split gives the same log as one pass", arguments: [2, 3, 4, 7])
    func splitsAgree(parts: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", bytes: Self.damagedLog(lines: 3000))
        let single = try SessionLogReader.load(path, parts: 1)
        let split = try SessionLogReader.load(path, parts: parts)
        #expect(split.events == single.events)
        #expect(split.warnings == single.warnings)
        #expect(split.skippedLines == single.skippedLines)
        #expect(split.unknownKinds == single.unknownKinds)
        #expect(split.clampedEvents == single.clampedEvents)
        #expect(split.requestIDs == single.requestIDs)
    }

    /// A line written twice was caught only within a part: the same file gave other counts
    /// read in more parts (a machine with more cores).
    @Test("every line written twice: each repeat is skipped, wherever the parts begin", arguments: [2, 3, 4, 7])
    func repeatsAcrossBoundaries(parts: Int) throws {
        var text = SessionLogReaderFatalTests.header + "\n"
        for index in 1...600 {
            let time = Double(index % 40 == 0 ? index - 30 : index)  // now and then backwards: clamped
            let line = #"{"seq":\#(index),"t":\#(time),"req":\#(index),"kind":"requestFinished","status":200,"latency":0.1,"bytesFromNetwork":5,"bytesFromCache":0,"outcome":"miss","reason":"r","coalesced":false}"#
            text += line + "\n" + line + "\n"
        }
        let directory = try TemporaryDirectory()
        let path = try directory.write("twice.jsonl", text)
        let single = try SessionLogReader.load(path, parts: 1)
        let split = try SessionLogReader.load(path, parts: parts)
        #expect(single.events.count == 600 && single.skippedLines == 600)
        #expect(single.warnings.filter { if case .repeatedEvent = $0 { true } else { false } }.count == 600)
        #expect(split.events == single.events)
        #expect(split.warnings == single.warnings)
        #expect(split.skippedLines == single.skippedLines)
        #expect(split.clampedEvents == single.clampedEvents)
    }

    @Test("times that zigzag below an earlier peak across part boundaries are clamped and counted once", arguments: [2, 3, 5, 8])
    func zigzagAcrossBoundaries(parts: Int) throws {
        var text = SessionLogReaderFatalTests.header + "\n"
        for index in 0..<4000 {
            let block = Double(index / 50) * 1000
            let step = index % 50
            let time = step == 0 ? block + 999 : block + Double(step % 2 == 0 ? step : step - 2)
            text += #"{"seq":\#(index + 1),"t":\#(time),"kind":"dropped","count":\#(index)}"# + "\n"
        }
        let directory = try TemporaryDirectory()
        let path = try directory.write("zigzag.jsonl", text)
        let single = try SessionLogReader.load(path, parts: 1)
        let split = try SessionLogReader.load(path, parts: parts)
        #expect(single.clampedEvents == 4000 - 80)  // all but each block's peak
        #expect(split.clampedEvents == single.clampedEvents)
        #expect(split.events == single.events)
        #expect(split.warnings == single.warnings)
    }

    @Test("the single pass itself: counts and the first backward time")
    func singlePass() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", bytes: Self.damagedLog(lines: 3000))
        let log = try SessionLogReader.load(path, parts: 1)
        let garbage = (2...3000).filter { $0 % 97 == 13 }.count
        let future = (2...3000).filter { $0 % 97 == 29 }.count
        // Replay the generator's clock: an event is clamped while it lies below the latest time.
        var time = 0.0
        var latest = -Double.infinity
        var clamped = 0
        for index in 2...3000 where ![0, 13, 29].contains(index % 97) {
            time += [41, 42, 43].contains(index % 97) ? -0.75 : 0.125
            guard index != 500 else { continue }  // its line is rejected
            if time < latest { clamped += 1 } else { latest = time }
        }
        #expect(log.skippedLines == garbage + future + 2)  // + line 500 and the truncated last line
        #expect(log.unknownKinds.values.reduce(0, +) == future)
        #expect(log.clampedEvents == clamped)
        #expect(clamped > 100)
        #expect(zip(log.events, log.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(log.warnings.first { if case .timeWentBackwards = $0 { true } else { false } }?.line == 41)
        #expect(log.warnings.last == .truncatedLastLine(file: path, line: 3001))
        let line500 = log.warnings.first { $0.line == 500 }?.description ?? ""
        #expect(line500.hasPrefix("\(path):500: not JSON (invalid UTF-8 at column "))
    }

    @Test("a log over the parallel threshold loads in parts and matches one pass")
    func largeLog() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("large.jsonl", bytes: Self.damagedLog(lines: 3000))
        // A threshold below the log's size stands in for the real 8 MiB (a debug build parses
        // 8 MiB twice in half a minute).
        let threshold = 64 * 1024
        let file = try InputFile(path: path)
        #expect(file.size > threshold)
        #expect(try SessionLogReader.split(file, from: 0, parts: nil, threshold: threshold).count == min(4, ProcessInfo.processInfo.activeProcessorCount))
        #expect(try SessionLogReader.split(file, from: 0, parts: nil).count == 1)
        let automatic = try SessionLogReader.load(path, parts: nil, threshold: threshold)
        let single = try SessionLogReader.load(path, parts: 1)
        #expect(automatic.events == single.events)
        #expect(automatic.warnings == single.warnings)
        #expect(automatic.events.count > 2_000)
    }
}
