import TestFixtures
import CacheEvents
import Foundation
import SessionLog
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Session logs and HAR exports hold URLs and headers: they are created readable by their
/// owner only (0600), whatever the umask, as the store's files are.
@Suite("Recorded files are private: mode 0600")
struct FileModeTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test("a session log written by the recorder is 0600, also when it replaces a 0644 file")
    func recorder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("capture.jsonl")
        let bus = EventBus()
        let recorder = try SessionRecorder(bus: bus, path: path)
        _ = SampleSession.publish(on: bus)
        try await recorder.close()
        #expect(Self.mode(path) == 0o600)

        let old = try directory.write("old.jsonl", "old\n")
        #expect(chmod(old, 0o644) == 0)
        let again = try SessionRecorder(bus: EventBus(), path: old)
        try await again.close()
        #expect(Self.mode(old) == 0o600)
    }

    @Test("a session log written by SessionLogWriter is 0600")
    func writer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sim.jsonl")
        let writer = try SessionLogWriter(path: path, header: SessionLogHeader(startedAt: Date(), redacted: true))
        try writer.close()
        #expect(Self.mode(path) == 0o600)
    }

    @Test("a HAR is written whole (temporary file renamed) with mode 0600; a failed write leaves nothing")
    func har() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus()
        let recorder = try SessionRecorder(bus: bus, path: directory.file("session.jsonl"))
        _ = SampleSession.publish(on: bus)
        try await recorder.close()
        let log = try SessionLogReader.load(directory.file("session.jsonl"))
        let archive = HARExporter().export(log).archive
        let path = directory.file("out.har")
        try "{\"log\": {}}".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        try archive.write(to: path)
        #expect(Self.mode(path) == 0o600)
        #expect(try HARReader.load(path).log.entries.count == archive.log.entries.count)

        let blocked = directory.file("blocked.har")
        try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
        #expect(throws: HARError.self) { try archive.write(to: blocked) }
        #expect(throws: HARError.self) { try archive.write(to: directory.file("missing/out.har")) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["blocked.har", "out.har", "session.jsonl"], "no temporary file left: \(names)")
    }
}
