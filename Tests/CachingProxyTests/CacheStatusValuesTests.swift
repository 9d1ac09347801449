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
}
