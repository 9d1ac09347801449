import HTTPTypes
import CacheEvents
import HTTPCaching
import SessionLog
import Testing
@testable import Dashboard

@Suite("Bounded structures: request ring, latency histogram, rates")
struct BoundedStructuresTests {
    @Test("The ring keeps the newest requests under their serials and forgets the oldest")
    func ring() {
        var log = RequestLog(capacity: 3)
        for id in 1...5 {
            log.append(RequestRecord(id: UInt64(id), started: Double(id), method: "GET", url: "u\(id)", cacheKey: "", policy: ""))
        }
        #expect(log.count == 3)
        #expect(log.total == 5)
        #expect(log.oldestSerial == 2)
        #expect(log.newestSerial == 4)
        #expect(log[serial: 1] == nil)
        #expect(log[serial: 2]?.url == "u3")
        #expect(log[serial: 4]?.url == "u5")
        #expect(log.clamp(0) == 2)
        #expect(log.clamp(99) == 4)
    }

    @Test("Open requests overwritten in the ring leave the open index, so it never outgrows the ring")
    func openIndexBounded() {
        var log = RequestLog(capacity: 100)
        for id in 0..<10_000 {   // never finished
            log.append(RequestRecord(id: UInt64(id), started: 0, method: "GET", url: "", cacheKey: "", policy: ""))
        }
        #expect(log.openCount == 100)
        #expect(log.openSerial(of: 9_999) == 9_999)
        #expect(log.openSerial(of: 0) == nil)
    }

    @Test("Percentiles come from the log buckets, within 6 % of the exact value")
    func percentiles() throws {
        var histogram = LatencyHistogram()
        for millisecond in 1...1000 { histogram.record(Double(millisecond) / 1000) }
        let p50 = try #require(histogram.percentile(0.5))
        let p99 = try #require(histogram.percentile(0.99))
        #expect(abs(p50 - 0.5) / 0.5 < 0.06)
        #expect(abs(p99 - 0.99) / 0.99 < 0.06)
        #expect(histogram.minimum == 0.001)
        #expect(histogram.maximum == 1)
        #expect(LatencyHistogram().percentile(0.5) == nil)
    }

    @Test("Extreme latencies land in the end buckets and are clamped to what was seen")
    func extremes() {
        var histogram = LatencyHistogram()
        histogram.record(0)
        histogram.record(-1)
        histogram.record(.nan)
        #expect(histogram.percentile(0.5) == 0)
        histogram.record(10_000)
        #expect(histogram.percentile(1) == 10_000)
    }

    @Test("Rates count the last 10 s of the timeline, divided by the session's age while it is younger; late events are ignored")
    func rates() {
        func finished(_ time: Double) -> CacheEvent {
            CacheEvent(seq: 1, time: time, requestID: nil, kind: .requestFinished(RequestFinished(
                status: 200, latency: 0.01, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .miss, reason: "")))
        }
        var model = TrafficModel()
        for time in [0, 95.5, 100.2, 100.7] { model.apply(finished(time)) }
        #expect(model.requestRate(at: 100.9) == 0.3)
        model.apply(finished(40.5))   // the slot of second 100, which is newer: too late to count
        model.apply(finished(110.1))
        #expect(model.requestRate(at: 110.5) == 0.1, "seconds 95 and 100 are out of the window")
        #expect(model.timeline.total(lastSeconds: 60, endingAt: 110.5).requests == 4)
        var young = TrafficModel()
        for time in [108.0, 110.1] { young.apply(finished(time)) }
        #expect(young.requestRate(at: 110.5) == 0.8, "a 2.5 s old session divides by 2.5")
    }

    @Test("TTL states: fresh, expiring within 10 s or a fifth of the lifetime, expired")
    func ttlStates() {
        #expect(TTLState(remaining: 100, lifetime: 120) == .fresh)
        #expect(TTLState(remaining: 20, lifetime: 120) == .expiring)
        #expect(TTLState(remaining: 9, lifetime: nil) == .expiring)
        #expect(TTLState(remaining: 11, lifetime: nil) == .fresh)
        #expect(TTLState(remaining: 0, lifetime: 60) == .expired)
        #expect(TTLState(remaining: -5, lifetime: 60) == .expired)
    }

    @Test("Vary signatures are read as the store writes them")
    func signatures() {
        let fields = VariantSignature.fields(of: "accept-language=\"fr, en\"&x-mode=-")
        #expect(fields.map(\.name) == ["accept-language", "x-mode"])
        #expect(fields.map(\.value) == ["fr, en", nil])
        #expect(VariantSignature.matches("accept-language=\"fr, en\"&x-mode=-",
                                         requestHeaders: HTTPFields([testField("Accept-Language", value: "fr,en")])))
        #expect(!VariantSignature.matches("accept-language=\"fr\"", requestHeaders: [:]))
    }
}
