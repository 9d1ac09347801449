import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching

/// What a store of a 10 KB body costs the caller: with a disk tier the call must cost about
/// what the memory insert alone costs — the durable write (temporary file, fsync, rename,
/// index commit) happens later on the disk actor.
enum StoreLatencyBenchmark {
    static func run() async -> Bool {
        print("\n## Store of a 10 KB body (caller's time)")
        let body = Workload.body(10_240)
        let count = 2000
        let responses = (0..<count + 300).map(Workload.response)

        let memoryOnly = try! ResponseStore(configuration: StoreConfiguration(memoryCapacity: 1 << 30))
        var number = 0
        let memoryInsert = measure("store, memory-only store (the memory insert)", samples: 100, iterations: count / 100) {
            number += 1
            memoryOnly.storeCachedResponse(responses[number], body: body, freshUntil: nil, expiresAt: nil)
        }
        print(memoryInsert.summary)

        let directory = Workload.directory("store")
        defer { Workload.remove(directory) }
        let diskBacked = try! ResponseStore(
            configuration: StoreConfiguration(memoryCapacity: 1 << 30, diskCapacity: 1 << 30, directory: directory))
        number = 0
        let withDisk = measure("store, disk-backed store", samples: 100, iterations: count / 100) {
            number += 1
            diskBacked.storeCachedResponse(responses[number], body: body, freshUntil: nil, expiresAt: nil)
        }
        print(withDisk.summary)
        let clock = ContinuousClock()
        let start = clock.now
        await diskBacked.flush()
        let perEntry = (clock.now - start).seconds / Double(number)
        print("the disk actor then needed \(Measurement.format(perEntry)) per entry to make them durable (off the caller's path)")
        await diskBacked.close()

        // The disk actor encodes and writes on the other core meanwhile; on two cores that
        // contention is all the caller may feel, so twice the memory insert is the bound.
        let limit = memoryInsert.median * 2
        let pass = withDisk.median <= limit
        print(
            "\(pass ? "PASS" : "FAIL") store with disk does not block beyond the memory insert: median \(Measurement.format(withDisk.median)) ≤ \(Measurement.format(limit)) (2 × memory-only; a durable write takes \(Measurement.format(perEntry)))"
        )
        return pass
    }
}
