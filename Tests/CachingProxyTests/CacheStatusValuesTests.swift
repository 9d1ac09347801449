@testable import CachingProxy
import Testing

/// The `Cache-Status` values a proxy keeps once written: the same text as writing each anew.
@Suite("Cache-Status values kept")
struct CacheStatusValuesTests {
    private static func hit(ttl: Double) -> CacheStatus {
        var status = CacheStatus(failure: "unused")
        status.forward = nil
        status.detail = nil
        status.hit = true
        status.timeToLive = ttl
        return status
    }

    private static var revalidated: CacheStatus {
        var status = CacheStatus(failure: "unused")
        status.forward = .stale
        status.detail = nil
        status.forwardStatus = 304
        status.timeToLive = 60
        return status
    }

    @Test("each kept value is the one the serializer writes")
    func sameTextAsWritingAnew() {
        let values = CacheStatusValues(cacheName: "edge-1")
        for status in [Self.hit(ttl: 41.7), Self.revalidated, CacheStatus(failure: "origin-unreachable"), Self.hit(ttl: 41.7)] {
            #expect(values.value(for: status) == status.fieldValue(cacheName: "edge-1"))
        }
        #expect(values.value(for: Self.hit(ttl: 41.7)) == "edge-1;hit;ttl=41")
        #expect(values.count == 3)
    }

    @Test("statuses that differ only within a second of ttl share a value; another second is another")
    func wholeSecondsOfTTL() {
        let values = CacheStatusValues(cacheName: "cachescope")
        #expect(values.value(for: Self.hit(ttl: 41.2)) == "cachescope;hit;ttl=41")
        #expect(values.value(for: Self.hit(ttl: 41.9)) == "cachescope;hit;ttl=41")
        #expect(values.count == 1)
        #expect(values.value(for: Self.hit(ttl: 42)) == "cachescope;hit;ttl=42")
        #expect(values.value(for: Self.hit(ttl: -0.5)) == "cachescope;hit;ttl=0")
        #expect(values.count == 3)
    }

    @Test("past its limit it starts again empty, and still answers right")
    func bounded() {
        let values = CacheStatusValues(cacheName: "cachescope", limit: 2)
        for ttl in [1.0, 2, 3] { _ = values.value(for: Self.hit(ttl: ttl)) }
        #expect(values.count == 1)
        #expect(values.value(for: Self.hit(ttl: 1)) == "cachescope;hit;ttl=1")
    }

    @Test("statuses that differ in any one thing the value says get values of their own")
    func everyFieldCounts() {
        var variants: [CacheStatus] = []
        let base = Self.revalidated
        variants.append(base)
        var other = base; other.stored = true; variants.append(other)
        other = base; other.collapsed = true; variants.append(other)
        other = base; other.forwardStatus = 200; variants.append(other)
        other = base; other.forwardStatus = 404; variants.append(other)
        other = base; other.forward = .uriMiss; variants.append(other)
        other = base; other.forward = .miss; variants.append(other)
        other = base; other.hit = true; variants.append(other)
        other = base; other.detail = "stale-if-error"; variants.append(other)
        other = base; other.detail = "only-if-cached"; variants.append(other)
        other = base; other.timeToLive = nil; variants.append(other)
        let values = CacheStatusValues(cacheName: "cachescope")
        let written = variants.map { values.value(for: $0) }
        #expect(written == variants.map { $0.fieldValue(cacheName: "cachescope") })
        #expect(Set(written.compactMap { $0 }).count == variants.count, "\(written)")
        #expect(values.count == variants.count)
    }

    @Test("a ttl no whole number of seconds says is written as the serializer writes it", arguments: [
        Double.nan, .infinity, -.infinity, -3.2, 1e300, 0.999,
    ])
    func oddTimesToLive(ttl: Double) {
        let values = CacheStatusValues(cacheName: "cachescope")
        let status = Self.hit(ttl: ttl)
        #expect(values.value(for: status) == status.fieldValue(cacheName: "cachescope"))
        #expect(values.value(for: status) == status.fieldValue(cacheName: "cachescope"), "kept, then read back")
    }
}
