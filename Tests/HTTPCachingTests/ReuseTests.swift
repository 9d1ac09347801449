import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §4: constructing responses from caches — the decision and the words it is shown in.
@Suite("RFC 9111 §4 reusing stored responses")
struct ReuseTests {
    @Test("§4 a fresh stored response is served without contacting the origin")
    func freshHit() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60")], at: 10)
        #expect(decision == .fresh(CacheHit(candidate: 0, freshness: Freshness(lifetime: 60, age: 10, source: .maxAge(60)), immutableSkippedRevalidation: false)))
        #expect(decision.reason == "max-age=60")
    }

    @Test("§4.2.4 a stale response with an ETag is revalidated")
    func staleRevalidated() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)], at: 100)
        guard let revalidation = Fixture.revalidation(decision) else { return }
        #expect(revalidation.candidate == 0)
        #expect(revalidation.reason == .expired(staleBy: 40))
        #expect(revalidation.freshness == Freshness(lifetime: 60, age: 100, source: .maxAge(60)))
        #expect(revalidation.conditionalHeaders == ConditionalHeaders(ifNoneMatch: [EntityTag(opaqueTag: "v1")], ifModifiedSince: nil))
        #expect(decision.reason == "expired 40s ago")
    }

    @Test("§4.3.1 a stale response without a validator is fetched in full and kept as candidate")
    func staleWithoutValidator() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60")], at: 100)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.expired(staleBy: 40)), candidate: 0)))
        #expect(decision.reason == "expired 40s ago, no validator")
        #expect(decision.candidate == 0)
    }

    @Test("§4 nothing stored is a miss")
    func notStored() {
        let decision = Fixture.decide([], at: 0)
        #expect(decision == .miss(Miss(reason: .notStored, candidate: nil)))
        #expect(decision.reason == "not in cache")
        #expect(decision.candidate == nil)
    }

    @Test("§4 requests with methods other than GET and HEAD bypass the cache", arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
    func unsafeBypass(method: HTTPRequest.Method) {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60")], request: Fixture.request(method), at: 0)
        #expect(decision == .bypass(.methodNotCacheable(method.rawValue)))
        #expect(decision.reason == "method \(method.rawValue)")
    }

    @Test("§4 a HEAD request is answered from a stored GET response")
    func headServedFromGet() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60")], request: Fixture.request(.head), at: 1)
        #expect(decision.kind == "fresh")
        #expect(decision.candidate == 0)
    }

    @Test("§2 a request without an absolute URI bypasses the cache")
    func noCacheKey() {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/articles/1")
        let decision = Fixture.privateCache.decide(request: request, policy: .useProtocolCachePolicy, candidates: [], now: Fixture.t0)
        #expect(decision == .bypass(.noCacheKey))
        #expect(decision.reason == "no absolute URI")
    }

    @Test("§4 the current age, not the age at storing, decides freshness")
    func freshThenStale() {
        let stored = [Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)]
        #expect(Fixture.decide(stored, at: 59).kind == "fresh")
        #expect(Fixture.decide(stored, at: 60).summary == "revalidate: expired 0s ago")
        #expect(Fixture.decide(stored, at: 3660).summary == "revalidate: expired 1h ago")
    }

    @Test("§4.2.1 a stale response with an expired Expires reports how long ago it expired")
    func expiresReason() {
        let stored = [Fixture.stored("Expires: \(Fixture.httpDate(30))", "Last-Modified: \(Fixture.httpDate(-10))")]
        #expect(Fixture.decide(stored, at: 33).summary == "revalidate: expired 3s ago")
    }

    // MARK: The words of a decision

    static let freshness = Freshness(lifetime: 60, age: 100, source: .maxAge(60))
    static let decisions: [(CacheDecision, CacheOutcome?, LookupVerdict, String)] = [
        (.fresh(CacheHit(candidate: 0, freshness: freshness, immutableSkippedRevalidation: false)), .hit, .fresh, "max-age=60"),
        (.fresh(CacheHit(candidate: 0, freshness: freshness, immutableSkippedRevalidation: true)), .hit, .fresh, "immutable, max-age=60"),
        (.stale(StaleHit(candidate: 0, freshness: freshness, reason: .maxStale)), .stale, .stale, "request max-stale"),
        (.staleWhileRevalidate(StaleHit(candidate: 0, freshness: freshness, reason: .staleWhileRevalidate(window: 30))), .stale, .stale, "stale-while-revalidate"),
        (.revalidate(Revalidation(candidate: 0, freshness: freshness, reason: .expired(staleBy: 40), conditionalHeaders: ConditionalHeaders(ifNoneMatch: [], ifModifiedSince: Fixture.t0))), nil, .stale, "expired 40s ago"),
        (.miss(Miss(reason: .notStored, candidate: nil)), nil, .miss, "not in cache"),
        (.miss(Miss(reason: .staleWithoutValidator(.expired(staleBy: 40)), candidate: 0)), nil, .stale, "expired 40s ago, no validator"),
        (.bypass(.policy(.reloadIgnoringLocalCacheData)), nil, .bypass, "policy reload"),
        (.unsatisfiable(.onlyIfCached), .error, .miss, "only-if-cached and nothing usable stored"),
    ]

    @Test("§4 each decision has its immediate outcome, lookup verdict and reason", arguments: ReuseTests.decisions)
    func vocabulary(decision: CacheDecision, outcome: CacheOutcome?, verdict: LookupVerdict, reason: String) {
        #expect(decision.immediateOutcome == outcome)
        #expect(decision.verdict == verdict)
        #expect(decision.reason == reason)
    }

    @Test(
        "§4.2 revalidation reasons read as short phrases",
        arguments: [
            (RevalidationReason.expired(staleBy: 3), "expired 3s ago"), (.expired(staleBy: 7200), "expired 2h ago"),
            (.expired(staleBy: 3601), "expired 3601s ago"), (.mustRevalidate(staleBy: 5), "stale 5s and must-revalidate"),
            (.responseNoCache, "no-cache"), (.requestNoCache, "request no-cache"), (.requestPragmaNoCache, "request Pragma: no-cache"),
            (.requestMaxAge(limit: 10, age: 20.4), "request max-age=10 < age 20s"),
            (.requestMinFresh(required: 30, remaining: 9.6), "request min-fresh=30 > 10s left"),
            (.invalidFreshness("max-age invalid value \"x\""), "max-age invalid value \"x\""),
            (.policyAlwaysRevalidates, "policy revalidate"), (.refreshCommand, "refresh requested"),
        ])
    func revalidationReasonText(reason: RevalidationReason, text: String) {
        #expect(reason.description == text)
    }

    @Test("§4 miss, bypass, stale and unsatisfiable reasons read as short phrases")
    func otherReasonTexts() {
        #expect(MissReason.varyMismatch(["accept-language", "x-api-version"]).description == "Vary mismatch: Accept-Language, X-Api-Version")
        #expect(MissReason.staleWithoutValidator(.responseNoCache).description == "no-cache, no validator")
        #expect(BypassReason.policy(.reloadIgnoringLocalAndRemoteCacheData).description == "policy reload-all")
        #expect(StaleReason.staleIfError(window: 60, failure: "503 Service Unavailable").description == "stale-if-error (503 Service Unavailable)")
        #expect(StaleReason.policy(.returnCacheDataDontLoad).description == "policy cache-only")
        #expect(UnsatisfiableReason.policyDontLoad.description == "policy cache-only and nothing stored")
    }

    @Test("§4 outcomes: hit, stale and revalidated are served from the cache")
    func outcomes() {
        #expect(CacheOutcome.allCases.filter(\.servedFromCache) == [.hit, .stale, .revalidated])
        #expect(CacheOutcome.allCases.map(\.description) == ["hit", "stale", "revalidated", "modified", "miss", "bypass", "error"])
    }
}
