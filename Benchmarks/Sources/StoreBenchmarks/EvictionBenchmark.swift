import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching

/// Eviction cost at 1,000 and 100,000 entries: each measured store goes into a full tier
/// and evicts exactly one entry. The two medians should be about equal.
enum EvictionBenchmark {
    static func run(large: Int, largeStore: URL) async -> Bool {
        print("\n## Eviction cost versus number of entries")
        let memorySmall = memoryEviction(entries: 1_000)
        let memoryLarge = memoryEviction(entries: large)
        let memoryRatio = ratio(memoryLarge, memorySmall)
        let diskSmall = await diskEviction(entries: 1_000, existing: nil)
        let diskLarge = await diskEviction(entries: large, existing: largeStore)
        let diskRatio = ratio(diskLarge, diskSmall)
        let pass = memoryRatio <= 3 && diskRatio <= 3
        print(
            "\(pass ? "PASS" : "FAIL") eviction cost independent of the number of entries: \(large / 1000)k/1k = \(String(format: "%.2f", memoryRatio)) (memory), \(String(format: "%.2f", diskRatio)) (disk index) ≤ 3"
        )
        return pass
    }

    /// A memory-only store filled to capacity with `entries` entries of 1 KB.
    static func memoryEviction(entries: Int) -> BenchmarkSupport.Measurement {
        let body = Workload.body(1024)
        let size = CacheEntry.size(of: Workload.response(entries * 10), body: body)
        let store = try! ResponseStore(configuration: StoreConfiguration(memoryCapacity: entries * size))
        Workload.fill(store, count: entries, size: 1024)
        precondition(store.stats().memoryEntryCount == entries, "the tier must hold all \(entries) entries")
        var number = entries
        let result = measure("memory store evicting one entry, \(entries) entries", samples: 100, iterations: 100) {
            number += 1
            store.storeCachedResponse(Workload.response(number), body: body, freshUntil: nil, expiresAt: nil)
        }
        precondition(store.currentMemoryUsage <= store.memoryCapacity)
        return result
    }

    /// The disk index evicting: entries are stored with memory capacity 0 so only the disk
    /// tier holds them (the large store is the reopen benchmark's); the disk capacity is then
    /// set to the usage, so every store evicts one. The measured call is the index update
    /// and the queued delete; the file work happens later on the disk actor.
    static func diskEviction(entries: Int, existing: URL?) async -> BenchmarkSupport.Measurement {
        let directory = existing ?? Workload.directory("evict")
        defer { if existing == nil { Workload.remove(directory) } }
        let store = try! ResponseStore(
            configuration: StoreConfiguration(memoryCapacity: 0, diskCapacity: 1 << 34, directory: directory, maximumEntryShare: 0.5))
        if existing == nil { Workload.fill(store, count: entries, size: 100) }
        await store.flush()
        precondition(store.stats().diskEntryCount == entries)
        store.diskCapacity = store.currentDiskUsage
        let body = Workload.body(100)
        var number = entries
        let result = measure("disk index store evicting one entry, \(entries) entries", samples: 100, iterations: 20) {
            number += 1
            store.storeCachedResponse(Workload.response(number), body: body, freshUntil: nil, expiresAt: nil)
        }
        precondition(store.stats().diskEntryCount <= entries)
        await store.close()
        return result
    }
}
