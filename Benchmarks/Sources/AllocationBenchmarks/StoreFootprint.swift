import BenchmarkSupport
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// What the store's memory tier really holds in the heap against what it accounts for: a
/// store whose `memoryCapacity` says 32 MiB must not hold 300 MiB. Stores `entries` small
/// responses shaped like the demo origin's `/max-age/60` (six header fields, a 53-byte body,
/// values made at run time as the transport makes them) in a memory-only store, and divides
/// the growth of the process's resident memory by the store's `memoryUsed`.
/// Resident bytes for 20,000 entries do not depend on the machine's load, so the ratio gets a budget.
///
/// Set on 26 November 2026: 2,823 heap bytes per entry against 312 accounted (ratio 9.0)
/// before the tiers counted footprints (`EntryFootprint`); after, 2,752 against 2,840 (0.97).
struct StoreFootprint {
    /// How far the heap may stray from what is accounted: the capacity is honest within 20 %.
    static let budget = 0.8...1.2

    /// Responses stored.
    let entries: Int

    init(entries: Int = 20_000) {
        self.entries = entries
    }

    /// The heap bytes per accounted byte, and both per entry.
    struct Result {
        var heapPerEntry: Double
        var accountedPerEntry: Double
        var ratio: Double { heapPerEntry / accountedPerEntry }

        /// Prints the verdict against ``StoreFootprint/budget``.
        func check() -> Bool {
            let passed = StoreFootprint.budget.contains(ratio)
            print(String(
                format: "%@ memory tier: %.0f resident bytes per entry for %.0f accounted, ratio %.2f within %.1f–%.1f",
                passed ? "PASS" : "FAIL", heapPerEntry, accountedPerEntry, ratio,
                StoreFootprint.budget.lowerBound, StoreFootprint.budget.upperBound))
            return passed
        }
    }

    /// Runs this executable with `--footprint` in a child process without the malloc
    /// interposer (which adds a header to every allocation and would inflate the figure);
    /// its verdict line goes to this process's output. Returns whether it passed.
    static func checkInChildProcess() throws -> Bool {
        fflush(nil)
        let process = Process.uncounted(arguments: ["--footprint"])
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    func measure() async throws -> Result {
        let store = try ResponseStore(configuration: StoreConfiguration(memoryCapacity: 1 << 40, diskCapacity: 0))
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let before = heapInUse()
        for index in 0..<entries {
            let (stored, body) = Self.response(index, at: base)
            store.storeCachedResponse(
                stored, body: body, freshUntil: base + 3600, expiresAt: base + 7200, policy: .allowedInMemoryOnly)
        }
        let heap = Double(heapInUse() - before)
        let accounted = Double(store.stats().memoryUsed)
        withExtendedLifetime(store) {}
        await store.close()
        return Result(heapPerEntry: heap / Double(entries), accountedPerEntry: accounted / Double(entries))
    }

    private func heapInUse() -> Int { residentMemoryBytes() }

    /// A response as the client stores one from the demo origin, every string made at run time.
    private static func response(_ index: Int, at date: Date) -> (StoredResponse, [UInt8]) {
        let uri = "http://127.0.0.1:8080/max-age/60?n=\(index)"
        let body = Array("DemoOrigin /max-age/60?n=\(index)\nCache-Control: max-age=60\n".utf8)
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentType, value: "text/plain; charset=\("utf-8")"))
        fields.append(HTTPField(name: .cacheControl, value: "max-age=\(60)"))
        fields.append(HTTPField(name: .lastModified, value: "Thu, 26 Nov 2026 08:\(index % 60):50 GMT"))
        fields.append(HTTPField(name: .eTag, value: "\"\(String(index, radix: 16, uppercase: false))adc30ff0240\""))
        fields.append(HTTPField(name: .date, value: "Thu, 26 Nov 2026 08:04:\(index % 60) GMT"))
        fields.append(HTTPField(name: .contentLength, value: "\(body.count)"))
        let response = HTTPResponse(status: .ok, headerFields: fields)
        guard let key = CacheKey(method: "GET", uri: uri) else { fatalError("not a cache key: \(uri)") }
        let stored = StoredResponse(
            key: key, response: response, requestTime: date, responseTime: date,
            varyKey: VaryKey(responseHeaders: fields, requestHeaders: HTTPFields()))
        return (stored, body)
    }
}
