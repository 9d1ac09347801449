@testable import CacheStore
import CacheStoreCrashHelper
import Foundation
import HTTPCaching
import Testing

@Suite("Concurrency", .timeLimit(.minutes(2)))
struct ConcurrencyTests {
    @Test("many readers, writers and freshens on a disk-backed store: every served entry is exact, the index stays consistent")
    func readersAndWriters() async throws {
        let directory = TemporaryDirectory()
        let recorder = ChangeRecorder()
        var configuration = try CrashWorkload.configuration(directory: directory.url)
        configuration.memoryCapacity = 96 << 10
        let store = try ResponseStore(configuration: configuration, observer: recorder.observer)
        let problems = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var state = UInt64(worker + 1) &* 0x9e37_79b9
                    var problems: [String] = []
                    for _ in 0..<300 {
                        let roll = CrashWorkload.next(&state)
                        let index = Int(roll % 60)
                        let language = roll & 0x100 == 0 ? "en" : "de"
                        switch (roll >> 16) % 10 {
                        case 0...3:
                            let now = Date()
                            let (stored, body) = CrashWorkload.response(index, language: language, version: roll >> 40, now: now)
                            store.storeCachedResponse(
                                stored, body: body, freshUntil: now.addingTimeInterval(CrashWorkload.freshness),
                                expiresAt: now.addingTimeInterval(3600))
                        case 4...7:
                            for entry in await store.variants(for: CacheKey(CrashWorkload.request(index, language: language))!) {
                                if let problem = CrashWorkload.verify(entry) { problems.append(problem) }
                                store.recordAccess(entry)
                                guard roll & 0x200 != 0 else { continue }
                                // A 304: new headers and times, the same body, racing the readers.
                                let now = Date()
                                store.storeFreshened(
                                    CrashWorkload.freshened(entry.stored, at: now), of: entry,
                                    freshUntil: now.addingTimeInterval(CrashWorkload.freshness), expiresAt: now.addingTimeInterval(3600))
                            }
                        case 8:
                            store.removeCachedResponse(for: CrashWorkload.request(index, language: language))
                        default:
                            if worker == 0 { store.memoryCapacity = Int(64 << 10) + Int((roll >> 20) % (128 << 10)) }
                            _ = store.stats()
                            _ = await store.entries()
                        }
                    }
                    return problems
                }
            }
            var all: [String] = []
            for await problems in group { all += problems }
            return all
        }
        #expect(problems == [])
        await store.flush()
        #expect(store.invariantViolations() == [])
        #expect(recorder.evictions(.corrupt).isEmpty)
        #expect(store.currentMemoryUsage <= store.memoryCapacity)
        for row in await store.entries() {
            let entry = try #require(await store.variants(for: row.id.key).first { $0.id == row.id })
            #expect(CrashWorkload.verify(entry) == nil)
        }
        await store.close()
    }
}
