import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// A 304 freshen of a 1 MB body against one of a 1 KB body, through to durability: each
/// sample is `storeFreshened` plus `await flush()` (the metadata file written, fsynced and
/// renamed, its row committed). With headers and body in separate files the body is never
/// rewritten, so the two should cost the same. Interleaved A/B (the order swaps every
/// round, so drift and the other builders on the machine weigh on both alike).
enum FreshenBenchmark {
    static let rounds = 41
    static let warmup = 3
    static let limit = 1.2

    static func run() async -> Bool {
        print("\n## 304 freshen: 1 MB body versus 1 KB body (store + flush to disk)")
        let directory = Workload.directory("freshen")
        defer { Workload.remove(directory) }
        let store: ResponseStore
        do {
            store = try ResponseStore(
                configuration: StoreConfiguration(memoryCapacity: 64 << 20, diskCapacity: 1 << 30, directory: directory))
        } catch {
            print("FAIL cannot open a store in \(directory.path): \(error)")
            return false
        }
        let sizes = [1 << 10, 1 << 20]
        for (number, size) in sizes.enumerated() {
            store.storeCachedResponse(
                Workload.response(number), body: Workload.body(size), freshUntil: Date().addingTimeInterval(60),
                expiresAt: Date().addingTimeInterval(86_400))
        }
        await store.flush()

        var samples: [[Double]] = [[], []]
        var ratios: [Double] = []
        for round in 0..<(warmup + rounds) {
            var times = [0.0, 0.0]
            for slot in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                guard let entry = store.memoryVariants(for: Workload.key(slot))?.first else {
                    print("FAIL the \(sizes[slot]) B entry left memory")
                    return false
                }
                times[slot] = await freshen(entry, in: store)
            }
            guard round >= warmup else { continue }
            samples[0].append(times[0])
            samples[1].append(times[1])
            ratios.append(times[1] / times[0])
        }
        print(Figures.summary("freshen, 1 KB body", samples[0]))
        print(Figures.summary("freshen, 1 MB body", samples[1]))
        let fullStore = await fullStoreCost(store, size: 1 << 20)
        print(Figures.summary("for comparison: a full store of the 1 MB body (what a 304 wrote before the split)", fullStore))
        await store.close()

        // The verdict is the median of the per-round ratios, as for every interleaved A/B here:
        // each round's pair shares the machine's state of the moment (an fsync on this shared
        // VM takes 0.5 to 5 ms depending on the other builders), which the ratio cancels.
        let ratio = Figures.median(ratios)
        let sorted = ratios.sorted()
        let pass = ratio <= limit
        print(
            "\(pass ? "PASS" : "FAIL") a 304 freshen of a 1 MB body costs no more than of a 1 KB body: median ratio "
                + String(format: "%.2f", ratio) + " ≤ " + String(format: "%.2f", limit)
                + " (\(rounds) interleaved rounds, range " + String(format: "%.2f–%.2f", sorted.first ?? .nan, sorted.last ?? .nan)
                + "; ratio of the medians " + String(format: "%.2f", Figures.median(samples[1]) / Figures.median(samples[0])) + ")")
        return pass
    }

    /// One freshen at the current time, timed until it is on disk.
    private static func freshen(_ entry: CacheEntry, in store: ResponseStore) async -> Double {
        let now = Date()
        var fields = entry.stored.response.headerFields
        fields[.date] = HTTPDate.format(now)
        let response = StoredResponse(
            key: entry.stored.key, response: HTTPResponse(status: .ok, headerFields: fields), requestTime: now, responseTime: now,
            varyKey: entry.stored.varyKey)
        let start = ContinuousClock.now
        store.storeFreshened(response, of: entry, freshUntil: now.addingTimeInterval(60), expiresAt: now.addingTimeInterval(86_400))
        await store.flush()
        return seconds(ContinuousClock.now - start)
    }

    /// Full stores of a new body of `size` bytes, timed until on disk (informative).
    private static func fullStoreCost(_ store: ResponseStore, size: Int) async -> [Double] {
        var samples: [Double] = []
        for round in 0..<11 {
            let body = Workload.body(size, seed: round + 1)
            let start = ContinuousClock.now
            store.storeCachedResponse(
                Workload.response(2), body: body, freshUntil: Date().addingTimeInterval(60), expiresAt: Date().addingTimeInterval(86_400))
            await store.flush()
            samples.append(seconds(ContinuousClock.now - start))
        }
        return samples
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
