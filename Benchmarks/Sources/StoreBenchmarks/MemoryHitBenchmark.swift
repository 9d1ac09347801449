import BenchmarkSupport
@_spi(Benchmarks) import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

/// Memory hits through the store, and the same LRU structure guarded by a Mutex and by an
/// actor (the concurrency choice of the memory tier).
enum MemoryHitBenchmark {
    static func run() async -> Bool {
        print("\n## Memory hit (10,000 entries of 1 KB in memory)")
        let store = try! ResponseStore(configuration: StoreConfiguration(memoryCapacity: 256 << 20))
        let count = 10_000
        Workload.fill(store, count: count, size: 1024)
        let keys = (0..<count).map(Workload.key)
        let zipf = Workload.zipfSequence(count: count, length: 1 << 16)
        var step = 0

        let skewed = measure("memory hit, Zipf-distributed keys (memoryVariants + recordAccess)", samples: 200, iterations: 1000) {
            step = (step &+ 1) & (zipf.count - 1)
            let entries = store.memoryVariants(for: keys[zipf[step]])!
            store.recordAccess(entries[0])
        }
        let passed = check(skewed, atMost: 1e-6)

        var index = 0
        let uniform = measure("memory hit, uniformly random keys (memoryVariants + recordAccess)", samples: 200, iterations: 1000) {
            index = (index &+ 7919) % count
            let entries = store.memoryVariants(for: keys[index])!
            store.recordAccess(entries[0])
        }
        print(uniform.summary)
        let lookupOnly = measure("memory lookup only, Zipf (memoryVariants)", samples: 200, iterations: 1000) {
            step = (step &+ 1) & (zipf.count - 1)
            precondition(store.memoryVariants(for: keys[zipf[step]])!.count == 1)
        }
        print(lookupOnly.summary)
        let asyncPath = await measureAsync("memory hit, Zipf (await variants + recordAccess)", samples: 200, iterations: 1000) {
            step = (step &+ 1) & (zipf.count - 1)
            let entries = await store.variants(for: keys[zipf[step]])
            store.recordAccess(entries[0])
        }
        print(asyncPath.summary)
        let requests = (0..<count).map { HTTPRequest(method: .get, url: URL(string: Workload.uri($0))!) }
        let urlCacheStyle = await measureAsync("memory hit, Zipf (await cachedResponse(for: request))", samples: 200, iterations: 1000) {
            step = (step &+ 1) & (zipf.count - 1)
            let entry = await store.cachedResponse(for: requests[zipf[step]])
            precondition(entry != nil)
        }
        print(urlCacheStyle.summary)

        await mutexVersusActor(store: store, keys: keys)
        return passed
    }

    // MARK: Lock versus actor

    /// The memory tier's structure behind an actor: the alternative to a lock.
    actor ActorTier {
        var list = LRUList<CacheKey, CacheEntry>()

        func insert(_ entry: CacheEntry) { MemoryHitBenchmark.insert(entry, into: &list) }
        func hit(_ key: CacheKey) -> CacheEntry? { MemoryHitBenchmark.hit(key, in: &list) }
    }

    /// The same behind `Synchronization.Mutex` (the lead's first choice).
    final class MutexTier: Sendable {
        let list = Mutex(LRUList<CacheKey, CacheEntry>())

        func insert(_ entry: CacheEntry) { list.withLock { MemoryHitBenchmark.insert(entry, into: &$0) } }
        func hit(_ key: CacheKey) -> CacheEntry? { list.withLock { MemoryHitBenchmark.hit(key, in: &$0) } }
    }

    /// The same behind the store's own `Locked` (a pthread mutex, visible to TSan).
    final class PthreadTier: Sendable {
        let list = Locked(LRUList<CacheKey, CacheEntry>())

        func insert(_ entry: CacheEntry) { list.withLock { MemoryHitBenchmark.insert(entry, into: &$0) } }
        func hit(_ key: CacheKey) -> CacheEntry? { list.withLock { MemoryHitBenchmark.hit(key, in: &$0) } }
    }

    /// What every tier does with its list, whatever guards it.
    static func insert(_ entry: CacheEntry, into list: inout LRUList<CacheKey, CacheEntry>) {
        _ = list.insert(entry, for: entry.stored.key, cost: entry.metadata.size)
    }

    static func hit(_ key: CacheKey, in list: inout LRUList<CacheKey, CacheEntry>) -> CacheEntry? {
        guard list.touch(key) else { return nil }
        return list.peek(key)
    }

    static func mutexVersusActor(store: ResponseStore, keys: [CacheKey]) async {
        print("\n### Lock versus actor (same LRU list, \(keys.count) entries)")
        let actorTier = ActorTier()
        let mutexTier = MutexTier()
        let pthreadTier = PthreadTier()
        for key in keys {
            let entry = store.memoryVariants(for: key)![0]
            await actorTier.insert(entry)
            mutexTier.insert(entry)
            pthreadTier.insert(entry)
        }
        var index = 0
        let mutex = measure("Synchronization.Mutex tier hit, one caller", samples: 200, iterations: 1000) {
            index = (index &+ 7919) % keys.count
            precondition(mutexTier.hit(keys[index]) != nil)
        }
        print(mutex.summary)
        let pthread = measure("Locked (pthread) tier hit, one caller", samples: 200, iterations: 1000) {
            index = (index &+ 7919) % keys.count
            precondition(pthreadTier.hit(keys[index]) != nil)
        }
        print(pthread.summary)
        let actor = await measureAsync("actor tier hit, one caller (from another executor)", samples: 200, iterations: 1000) {
            index = (index &+ 7919) % keys.count
            let entry = await actorTier.hit(keys[index])
            precondition(entry != nil)
        }
        print(actor.summary)
        _ = ratio(actor, pthread)
        _ = ratio(pthread, mutex)

        // Contended: 4 tasks hitting at once; wall time divided by the number of hits.
        let perTask = 50_000
        func contended(_ hit: @escaping @Sendable (CacheKey) async -> Void) async -> Double {
            let clock = ContinuousClock()
            let start = clock.now
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        var index = task
                        for _ in 0..<perTask {
                            index = (index &+ 7919) % keys.count
                            await hit(keys[index])
                        }
                    }
                }
            }
            return (clock.now - start).seconds / Double(4 * perTask)
        }
        let mutexContended = await contended { _ = mutexTier.hit($0) }
        let pthreadContended = await contended { _ = pthreadTier.hit($0) }
        let actorContended = await contended { _ = await actorTier.hit($0) }
        print("4 concurrent callers, wall time per hit: Mutex \(Measurement.format(mutexContended)), Locked \(Measurement.format(pthreadContended)), actor \(Measurement.format(actorContended))")
    }
}
