import TestFixtures
import CacheStore
import CacheEvents
import SessionLog
import Foundation
import Testing
import HTTPTypes

@Suite("Session recorder", .timeLimit(.minutes(2)))
struct SessionRecorderTests {
    @Test("record → read round trip keeps every event and the header fields")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("capture.jsonl")
        let recorder = try SessionRecorder(bus: bus, path: path, configuration: .init(redactsSensitiveHeaders: false, producer: "tests 1.0"))
        let published = SampleSession.publish(on: bus)
        let recording = try await recorder.close()

        let log = try SessionLogReader.load(path)
        #expect(log.events == published)
        #expect(log.warnings.isEmpty)
        #expect(log.skippedLines == 0)
        #expect(recording.eventCount == published.count)
        #expect(log.header.format == "cachescope-session")
        #expect(log.header.version == 1)
        #expect(log.header.redacted == false)
        #expect(log.header.producer == "tests 1.0")
        let startedAt = try #require(log.header.startedAt)
        #expect(abs(startedAt.timeIntervalSince(bus.sessionStart)) < 0.001)

        let firstLine = try #require(try directory.read("capture.jsonl").split(separator: "\n").first)
        #expect(firstLine.hasPrefix(#"{"format":"cachescope-session","version":1,"startedAt":""#))
        #expect(firstLine.hasSuffix(#"Z","redacted":false,"producer":"tests 1.0"}"#))
    }

    @Test("sensitive header values are redacted by default and the header says so")
    func redactsByDefault() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("redacted.jsonl")
        let recorder = try SessionRecorder(bus: bus, path: path)
        let published = SampleSession.publish(on: bus)
        try await recorder.close()

        let text = try directory.read("redacted.jsonl")
        for secret in ["secret-token", "session=abc123", "dXNlcjpwYXNz", "tracking=xyz"] {
            #expect(!text.contains(secret), "\(secret) leaked into the log")
        }
        let log = try SessionLogReader.load(path)
        #expect(log.header.redacted)
        #expect(log.events == published.map { $0.redactingSensitiveHeaders() })
        guard case .requestStarted(let started) = log.events[2].kind else {
            Issue.record("expected requestStarted, got \(log.events[2].kind.name)")
            return
        }
        #expect(started.headers.map(\.value) == ["application/json", "[redacted]", "[redacted]", "[redacted]"])
        #expect(started.headers.map(\.name.rawName) == ["Accept", "Authorization", "cookie", "Proxy-Authorization"])
    }

    @Test("--no-redact keeps sensitive values")
    func noRedact() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let recorder = try SessionRecorder(bus: bus, path: directory.file("raw.jsonl"), configuration: .init(redactsSensitiveHeaders: false))
        SampleSession.publish(on: bus)
        try await recorder.close()
        let text = try directory.read("raw.jsonl")
        #expect(text.contains("Bearer secret-token"))
        #expect(text.contains("tracking=xyz; HttpOnly"))
        #expect(!text.contains("[redacted]"))
    }

    @Test("events reach the file within a few flush intervals (0.5 s each) while the recorder stays open")
    func flushesWithoutClose() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("open.jsonl")
        let recorder = try SessionRecorder(bus: bus, path: path)
        // The header is on disk at once.
        #expect(try SessionLogReader.load(path).events.isEmpty)
        let published = SampleSession.publish(on: bus)
        let (seen, waited) = try Self.waitForEvents(in: path, count: published.count)
        #expect(seen == published.count)
        // Flushed at the first interval on a quiet machine; a busy one may hold the thread back.
        #expect(waited < .seconds(3), "took \(waited) to reach the file")
        try await recorder.close()
    }

    /// Polls the file until it holds `count` events (or 10 s pass), blocking this thread rather
    /// than suspending, so other tests keeping the cooperative pool busy cannot delay the check.
    private static func waitForEvents(in path: String, count: Int) throws -> (seen: Int, waited: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        var seen = 0
        while clock.now - start < .seconds(10) {
            seen = try SessionLogReader.load(path).events.count
            if seen == count { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (seen, clock.now - start)
    }

    @Test("events stamped out of time order (two threads' events racing to the bus) are recorded with times that never decrease")
    func timesNeverDecrease() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("order.jsonl")
        let recorder = try SessionRecorder(bus: bus, path: path)
        let start = bus.sessionStart
        bus.publish(.dropped(Dropped(count: 1)), at: start.addingTimeInterval(1.0))
        bus.publish(.dropped(Dropped(count: 2)), at: start.addingTimeInterval(0.9995))  // stamped earlier, published later
        bus.publish(.dropped(Dropped(count: 3)), at: start.addingTimeInterval(1.5))
        _ = try await recorder.close()
        let log = try SessionLogReader.load(path)
        #expect(log.warnings.isEmpty, "\(log.warnings)")
        #expect(log.events.map(\.seq) == [1, 2, 3])
        let times = log.events.map(\.time)
        #expect(abs(times[0] - 1.0) < 1e-9 && abs(times[1] - 1.0) < 1e-9 && abs(times[2] - 1.5) < 1e-9, "\(times)")
    }

    @Test("close() is idempotent and records events published before it, not after")
    func closeBoundary() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("close.jsonl")
        let recorder = try SessionRecorder(bus: bus, path: path)
        for index in 0..<10_000 { bus.publish(.dropped(Dropped(count: index))) }
        let first = try await recorder.close()
        bus.publish(.error(ErrorInfo(message: "after close")))
        let second = try await recorder.close()
        #expect(first == second)
        #expect(first.eventCount == 10_000)
        let log = try SessionLogReader.load(path)
        #expect(log.events.count == 10_000)
        #expect(log.events.map(\.seq) == Array(1...10_000))
        #expect(bus.hasSubscribers == false)
    }

    @Test("initial events are recorded first")
    func initialEvents() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        bus.publish(.error(ErrorInfo(message: "before the recorder")))
        let stats = StoreStats(memoryUsed: 1, memoryCapacity: 2, diskUsed: 3, diskCapacity: 4, entryCount: 5)
        let recorder = try SessionRecorder(bus: bus, path: directory.file("initial.jsonl"), initial: [.storeStats(stats)])
        bus.publish(.error(ErrorInfo(message: "after")))
        try await recorder.close()
        let log = try SessionLogReader.load(directory.file("initial.jsonl"))
        #expect(log.events.map(\.kind) == [.storeStats(stats), .error(ErrorInfo(message: "after"))])
    }

    @Test("a file that cannot be created is a clear error")
    func cannotCreate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing-dir/capture.jsonl")
        #expect(throws: SessionLogError.cannotCreate(file: path, reason: "No such file or directory")) {
            _ = try SessionRecorder(bus: EventBus(), path: path)
        }
        #expect(SessionLogError.cannotCreate(file: path, reason: "No such file or directory").description
            == "\(path): cannot create the session log (No such file or directory)")
    }

    @Test("the recording's summary equals the summary of the replayed log")
    func liveSummaryEqualsReplayed() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let recorder = try SessionRecorder(bus: bus, path: directory.file("summary.jsonl"))
        let published = SampleSession.publish(on: bus)
        let recording = try await recorder.close()
        let log = try SessionLogReader.load(directory.file("summary.jsonl"))
        let replayed = SessionSummary(folding: log.events)
        #expect(recording.summary == replayed)
        #expect(recording.summary == SessionSummary(folding: published))
        #expect(recording.summary.text == replayed.text)
        #expect(try recording.summary.jsonString() == replayed.jsonString())
        #expect(replayed.counters.requests == 9)
    }

    @Test("SessionLogWriter writes logs the reader reads back")
    func writer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("written.jsonl")
        let writer = try SessionLogWriter(path: path, header: SessionLogHeader(startedAt: Date(timeIntervalSince1970: 1_700_000_000), redacted: false))
        writer.write(contentsOf: SampleSession.events)
        #expect(writer.eventCount == SampleSession.events.count)
        try writer.close()
        let log = try SessionLogReader.load(path)
        #expect(log.events == SampleSession.events)
        #expect(log.header.startedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try directory.read("written.jsonl").hasPrefix(#"{"format":"cachescope-session","version":1,"startedAt":"2023-11-14T22:13:20.000Z","redacted":false,"producer":"cachescope 0.1.0"}"#))
    }
}
