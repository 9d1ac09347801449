import CacheEvents
import Foundation
import HTTPCaching
import SessionLog
import Testing
import TestFixtures
import TrafficFilter

@Suite("Recording with a filter", .timeLimit(.minutes(2)))
struct FilteredRecordingTests {
    @Test("a filtered recording keeps whole matching requests and the store's events, in order; its summary is the log's")
    func wholeRequests() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let path = directory.file("misses.jsonl")
        let filter = try Filter("outcome:miss")
        let recorder = try SessionRecorder(
            bus: bus, path: path, configuration: .init(redactsSensitiveHeaders: false, filter: filter))
        let published = SampleSession.publish(on: bus)
        let recording = try await recorder.close()

        let log = try SessionLogReader.load(path)
        let expected = RequestSelection.select(published, filter: filter)
        #expect(log.events == expected)
        #expect(!expected.isEmpty && expected.count < published.count)
        #expect(log.events.map(\.seq) == log.events.map(\.seq).sorted(), "order is kept")
        // Every request in the log is whole: started and finished, and a miss.
        var started = Set<UInt64>(), finished = Set<UInt64>()
        for event in log.events {
            switch event.kind {
            case .requestStarted: started.insert(event.requestID ?? 0)
            case .requestFinished(let done):
                finished.insert(event.requestID ?? 0)
                #expect(done.outcome == .miss)
            default: break
            }
        }
        #expect(!finished.isEmpty && started == finished)
        #expect(recording.summary == SessionSummary(folding: log.events))
        #expect(recording.eventCount == log.events.count)
    }
}
