import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 8246: the immutable response directive.
@Suite("RFC 8246 immutable")
struct ImmutableTests {
    let immutable = Fixture.stored("Cache-Control: max-age=31536000, immutable", #"ETag: "v1""#)
    let mutable = Fixture.stored("Cache-Control: max-age=31536000", #"ETag: "v1""#)

    @Test("RFC 8246 §2 a fresh immutable response is not revalidated on reload (request max-age=0)")
    func reloadSkipped() {
        let decision = Fixture.decide([immutable], request: Fixture.get("Cache-Control: max-age=0"), at: 10)
        #expect(decision == .fresh(CacheHit(candidate: 0, freshness: Freshness(lifetime: 31_536_000, age: 10, source: .maxAge(31_536_000)), immutableSkippedRevalidation: true)))
        #expect(decision.reason == "immutable, max-age=31536000")
    }

    @Test("RFC 8246 §2 without immutable the same reload revalidates")
    func mutableRevalidated() {
        #expect(Fixture.decide([mutable], request: Fixture.get("Cache-Control: max-age=0"), at: 10).summary == "revalidate: request max-age=0 < age 10s")
    }

    @Test("RFC 8246 §2 a stale immutable response is revalidated like any other")
    func staleImmutable() {
        let stored = Fixture.stored("Cache-Control: max-age=60, immutable", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], request: Fixture.get("Cache-Control: max-age=0"), at: 100).summary == "revalidate: request max-age=0 < age 100s")
        #expect(Fixture.decide([stored], at: 100).summary == "revalidate: expired 40s ago")
    }

    @Test("RFC 8246 §2 request no-cache still revalidates an immutable response")
    func requestNoCache() {
        #expect(Fixture.decide([immutable], request: Fixture.get("Cache-Control: no-cache"), at: 10).summary == "revalidate: request no-cache")
    }

    @Test("RFC 8246 §2 Pragma: no-cache still revalidates an immutable response")
    func pragmaNoCache() {
        #expect(Fixture.decide([immutable], request: Fixture.get("Pragma: no-cache"), at: 10).summary == "revalidate: request Pragma: no-cache")
    }

    @Test("RFC 8246 §2 policy revalidate skips a fresh immutable response")
    func policyRevalidateSkipped() {
        let decision = Fixture.decide([immutable], policy: .reloadRevalidatingCacheData, at: 10)
        guard case .fresh(let hit) = decision else {
            Issue.record("expected a fresh hit, got \(decision)")
            return
        }
        #expect(hit.immutableSkippedRevalidation)
    }

    @Test("RFC 8246 §2 policy revalidate revalidates a stale immutable response")
    func policyRevalidateStale() {
        let stored = Fixture.stored("Cache-Control: max-age=60, immutable", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], policy: .reloadRevalidatingCacheData, at: 100).summary == "revalidate: policy revalidate")
    }

    @Test("RFC 8246 §2 a plain request for a fresh immutable response is an ordinary hit")
    func plainHit() {
        guard case .fresh(let hit) = Fixture.decide([immutable], at: 10) else {
            Issue.record("expected a fresh hit")
            return
        }
        #expect(!hit.immutableSkippedRevalidation)
    }

    @Test("RFC 8246 §2 response no-cache beats immutable")
    func responseNoCache() {
        let stored = Fixture.stored("Cache-Control: max-age=600, immutable, no-cache", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], request: Fixture.get("Cache-Control: max-age=0"), at: 10).summary == "revalidate: no-cache")
    }
}
