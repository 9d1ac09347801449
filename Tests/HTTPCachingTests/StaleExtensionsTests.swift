import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 5861: stale-while-revalidate (§3) and stale-if-error (§4).
@Suite("RFC 5861 stale content extensions")
struct StaleExtensionsTests {
    /// Fresh for 60 s, then 30 s of stale-while-revalidate; stored at 0 with a validator.
    let swr = Fixture.stored("Cache-Control: max-age=60, stale-while-revalidate=30", #"ETag: "v1""#)

    // MARK: §3 stale-while-revalidate

    @Test("RFC 5861 §3 within the window the stale response is served and revalidated in the background")
    func withinWindow() {
        let decision = Fixture.decide([swr], at: 80)
        #expect(decision == .staleWhileRevalidate(StaleHit(candidate: 0, freshness: Freshness(lifetime: 60, age: 80, source: .maxAge(60)), reason: .staleWhileRevalidate(window: 30))))
        #expect(decision.reason == "stale-while-revalidate")
        #expect(decision.immediateOutcome == .stale)
        #expect(decision.verdict == .stale)
    }

    @Test("RFC 5861 §3 the window's last second is still inside")
    func windowEdge() {
        #expect(Fixture.decide([swr], at: 90).kind == "staleWhileRevalidate")
    }

    @Test("RFC 5861 §3 beyond the window the response is revalidated first")
    func outsideWindow() {
        #expect(Fixture.decide([swr], at: 91).summary == "revalidate: expired 31s ago")
    }

    @Test("RFC 5861 §3 a fresh response is served fresh, not under the window")
    func freshIgnoresWindow() {
        #expect(Fixture.decide([swr], at: 10).summary == "fresh: max-age=60")
    }

    @Test("RFC 5861 §3 must-revalidate blocks stale-while-revalidate")
    func blockedByMustRevalidate() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-while-revalidate=30, must-revalidate", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 80).summary == "revalidate: stale 20s and must-revalidate")
    }

    @Test("RFC 5861 §3 response no-cache blocks stale-while-revalidate")
    func blockedByNoCache() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-while-revalidate=30, no-cache", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 80).summary == "revalidate: no-cache")
    }

    @Test("RFC 5861 §3 s-maxage blocks stale-while-revalidate in a shared cache")
    func blockedBySharedMaxAge() {
        let stored = Fixture.stored("Cache-Control: s-maxage=60, stale-while-revalidate=30", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 80, rules: Fixture.sharedCache).summary == "revalidate: stale 20s and must-revalidate")
    }

    @Test("RFC 5861 §3 request no-cache asks for validation instead")
    func requestNoCache() {
        #expect(Fixture.decide([swr], request: Fixture.get("Cache-Control: no-cache"), at: 80).summary == "revalidate: request no-cache")
    }

    @Test("RFC 5861 §3 only-if-cached does not start a background revalidation")
    func onlyIfCached() {
        #expect(Fixture.decide([swr], request: Fixture.get("Cache-Control: only-if-cached"), at: 80) == .unsatisfiable(.onlyIfCached))
    }

    @Test("RFC 5861 §3 a response without a validator is still served in the window")
    func withoutValidator() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-while-revalidate=30")
        #expect(Fixture.decide([stored], at: 80).kind == "staleWhileRevalidate")
    }

    @Test("RFC 5861 §3 an invalid window is ignored")
    func invalidWindow() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-while-revalidate=later", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 80).summary == "revalidate: expired 20s ago")
    }

    // MARK: §4 stale-if-error

    func staleIfError(_ stored: StoredResponse, _ requestLines: String..., at now: Double, rules: CacheRules = Fixture.privateCache) -> StaleHit? {
        rules.staleIfError(stored: stored, candidate: 3, request: Fixture.request(.get, requestLines), failure: "503", now: Fixture.at(now))
    }

    @Test("RFC 5861 §4 within the response's stale-if-error window the stale response is served on failure")
    func responseWindow() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-if-error=60")
        let hit = staleIfError(stored, at: 100)
        #expect(hit == StaleHit(candidate: 3, freshness: Freshness(lifetime: 60, age: 100, source: .maxAge(60)), reason: .staleIfError(window: 60, failure: "503")))
        #expect(hit?.reason.description == "stale-if-error (503)")
    }

    @Test("RFC 5861 §4 beyond the window nothing is served")
    func beyondWindow() {
        #expect(staleIfError(Fixture.stored("Cache-Control: max-age=60, stale-if-error=60"), at: 121) == nil)
        #expect(staleIfError(Fixture.stored("Cache-Control: max-age=60, stale-if-error=60"), at: 120) != nil)
    }

    @Test("RFC 5861 §4 without stale-if-error nothing is served on failure")
    func noDirective() {
        #expect(staleIfError(Fixture.stored("Cache-Control: max-age=60"), at: 61) == nil)
    }

    @Test("RFC 5861 §4 the request's stale-if-error overrides the response's (narrower)")
    func requestNarrower() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-if-error=600")
        #expect(staleIfError(stored, "Cache-Control: stale-if-error=10", at: 100) == nil)
    }

    @Test("RFC 5861 §4 the request's stale-if-error overrides the response's (wider)")
    func requestWider() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-if-error=10")
        let hit = staleIfError(stored, "Cache-Control: stale-if-error=100", at: 100)
        #expect(hit?.reason == .staleIfError(window: 100, failure: "503"))
    }

    @Test("RFC 5861 §4 the request's stale-if-error alone suffices")
    func requestOnly() {
        let hit = staleIfError(Fixture.stored("Cache-Control: max-age=60"), "Cache-Control: stale-if-error=60", at: 100)
        #expect(hit?.freshness.staleness == 40)
    }

    @Test("RFC 5861 §4 must-revalidate forbids serving stale on error")
    func mustRevalidateForbids() {
        #expect(staleIfError(Fixture.stored("Cache-Control: max-age=60, stale-if-error=600, must-revalidate"), at: 100) == nil)
        #expect(staleIfError(Fixture.stored("Cache-Control: max-age=60, must-revalidate"), "Cache-Control: stale-if-error=600", at: 100) == nil)
    }

    @Test("RFC 5861 §4 unqualified no-cache forbids serving stale on error")
    func noCacheForbids() {
        #expect(staleIfError(Fixture.stored("Cache-Control: no-cache, stale-if-error=600"), at: 100) == nil)
    }

    @Test("RFC 5861 §4 proxy-revalidate forbids it in a shared cache only")
    func proxyRevalidate() {
        let stored = Fixture.stored("Cache-Control: max-age=60, proxy-revalidate, stale-if-error=600")
        #expect(staleIfError(stored, at: 100, rules: Fixture.sharedCache) == nil)
        #expect(staleIfError(stored, at: 100) != nil)
    }

    @Test("RFC 5861 §4 a stale response without validator kept by a miss can be served on error")
    func missCandidate() {
        let stored = Fixture.stored("Cache-Control: max-age=60, stale-if-error=600")
        let decision = Fixture.decide([stored], at: 100)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.expired(staleBy: 40)), candidate: 0)))
        #expect(staleIfError(stored, at: 100)?.reason == .staleIfError(window: 600, failure: "503"))
    }

    @Test("RFC 5861 §4 only 500, 502, 503 and 504 count as errors", arguments: [(500, true), (502, true), (503, true), (504, true), (501, false), (404, false), (200, false), (429, false)])
    func errorStatuses(status: Int, isError: Bool) {
        #expect(CacheRules.isErrorStatus(status) == isError)
    }
}
