import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching

/// Disk hits of 10 KB bodies: memory capacity 0, so every lookup reads, verifies and
/// decodes the entry file (plain: SHA-256 checksum; encrypted: AES-GCM).
enum DiskHitBenchmark {
    static func run() async -> Bool {
        print("\n## Disk hit (10 KB body)")
        var passed = true
        for encrypted in [false, true] {
            let directory = Workload.directory("diskhit")
            defer { Workload.remove(directory) }
            let namespace = Namespace(name: "default", match: .all, encryptionKey: encrypted ? Workload.key32 : nil)
            let store = try! ResponseStore(
                configuration: StoreConfiguration(
                    memoryCapacity: 0, diskCapacity: 1 << 30, directory: directory, defaultNamespace: namespace))
            let count = 1000
            Workload.fill(store, count: count, size: 10_240)
            await store.flush()
            let keys = (0..<count).map(Workload.key)
            var index = 0
            let hit = await measureAsync("disk hit, 10 KB, \(encrypted ? "encrypted" : "plain")", samples: 200, iterations: 20) {
                index = (index &+ 7) % count
                let entries = await store.variants(for: keys[index])
                precondition(entries.first?.body.count == 10_240)
            }
            passed = check(hit, atMost: 50e-6) && passed
            await store.close()
        }
        return passed
    }
}
