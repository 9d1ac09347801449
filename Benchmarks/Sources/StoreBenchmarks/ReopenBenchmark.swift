import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching

/// Reopening a disk store of 100,000 entries: until the store is usable (index loaded,
/// open-time sweep done), and until the background repair pass has also listed the files.
enum ReopenBenchmark {
    static func configuration(_ directory: URL) -> StoreConfiguration {
        StoreConfiguration(memoryCapacity: 1 << 20, diskCapacity: 1 << 34, directory: directory, maximumEntryShare: 0.5)
    }

    /// Creates a disk store of `entries` entries with 100-byte bodies (also used by the
    /// eviction benchmark).
    static func create(_ directory: URL, entries: Int) async {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try! ResponseStore(configuration: configuration(directory))
        Workload.fill(store, count: entries, size: 100)
        await store.close()
        print("\n(created a disk store of \(entries) entries in \(Measurement.format((clock.now - start).seconds)); every file is fsynced)")
    }

    static func run(_ directory: URL, entries: Int) async -> Bool {
        print("\n## Reopen a disk store of \(entries) entries")
        let configuration = configuration(directory)
        let clock = ContinuousClock()
        var samples: [Double] = []
        var repaired: [Double] = []
        for _ in 0..<5 {
            let start = clock.now
            let store = try! ResponseStore(configuration: configuration)
            samples.append((clock.now - start).seconds)
            precondition(store.stats().diskEntryCount == entries)
            await store.flush()
            repaired.append((clock.now - start).seconds)
            await store.close()
        }
        print(Figures.summary("reopen \(entries) entries + background repair pass (lists every file)", repaired))
        return Figures.check("reopen \(entries) entries (usable)", samples, atMost: 0.300)
    }
}
