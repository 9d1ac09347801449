@testable import CacheStore
import CacheStoreCrashHelper
import Foundation
import Testing

/// A helper process stores, reads and removes entries in a loop; the test kills it with
/// SIGKILL at random moments, reopens the store and checks it.
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static let kills = 60

    @Test("after SIGKILL at random moments the index is consistent and every entry reads back exactly")
    func killRepeatedly() async throws {
        let binary = try #require(HelperProcess.locate(), "CacheStoreCrashHelper not found next to the test runner")
        let directory = TemporaryDirectory("crash")
        var random = SystemRandomNumberGenerator()
        var entriesSeen = 0
        var leftoverTemporaryFiles = 0
        for round in 0..<Self.kills {
            let (process, errors) = try HelperProcess.start(binary, directory: directory.url, seed: UInt64(round + 1))
            try await Task.sleep(for: .milliseconds(Int.random(in: 40...140, using: &random)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(
                process.terminationReason == .uncaughtSignal,
                "round \(round): helper exited by itself (\(process.terminationStatus)): \(stderr)")
            leftoverTemporaryFiles += ["default", "secret"].reduce(0) { count, name in
                count + ((try? FileManager.default.contentsOfDirectory(atPath: directory.namespace(name) + "/tmp"))?.count ?? 0)
            }
            entriesSeen += try await check(directory, round: round)
        }
        #expect(entriesSeen > 0, "the helper never stored anything before being killed")
        _ = leftoverTemporaryFiles  // how often a kill hit a write in progress; informative only
    }

    /// Reopens the store and checks it; returns how many entries it holds.
    private func check(_ directory: TemporaryDirectory, round: Int) async throws -> Int {
        let recorder = ChangeRecorder()
        var configuration = try CrashWorkload.configuration(directory: directory.url)
        configuration.sweepInterval = .seconds(3600)  // no sweep between the counts below
        let store = try ResponseStore(configuration: configuration, observer: recorder.observer)
        await store.flush()  // the repair pass and the open-time sweep are done
        #expect(store.invariantViolations() == [], "round \(round)")
        let stats = store.stats()
        #expect(stats.diskUsed <= stats.diskCapacity, "round \(round)")
        #expect(stats.degradedNamespaces.isEmpty, "round \(round)")

        let rows = await store.entries()
        #expect(rows.count == stats.entryCount, "round \(round)")
        let secretBytes = rows.filter { $0.namespace == "secret" }.reduce(0) { $0 + $1.size }
        #expect(secretBytes <= 512 << 10, "round \(round): secret namespace over its limit")
        for row in rows {
            guard let found = await store.variants(for: row.id.key).first(where: { $0.id == row.id }) else {
                // Only an entry whose short retention ended since the listing may be gone.
                #expect(row.expiresAt.map { $0 <= Date() } == true, "round \(round): \(row.id) listed but not readable")
                continue
            }
            #expect(CrashWorkload.verify(found) == nil, "round \(round): \(CrashWorkload.verify(found) ?? "")")
        }
        #expect(recorder.evictions(.corrupt).isEmpty, "round \(round): corrupt entries after a crash: \(recorder.evictions(.corrupt))")

        // Every file has a row and every row a file.
        await store.flush()
        let files = ["default", "secret"].reduce(0) { $0 + directory.entryFiles($1).count }
        #expect(files == store.stats().diskEntryCount, "round \(round): \(files) files, \(store.stats().diskEntryCount) rows")
        await store.close()
        return rows.count
    }
}
