import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §5.2.2: response directives, and §4.2.4 on serving stale responses.
@Suite("RFC 9111 §5.2.2 response directives")
struct ResponseDirectivesTests {
    // MARK: §5.2.2.2 must-revalidate

    @Test("§5.2.2.2 must-revalidate: a stale response is revalidated")
    func mustRevalidateStale() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60, must-revalidate", #"ETag: "v1""#)], at: 100)
        guard let revalidation = Fixture.revalidation(decision) else { return }
        #expect(revalidation.reason == .mustRevalidate(staleBy: 40))
        #expect(decision.reason == "stale 40s and must-revalidate")
    }

    @Test("§5.2.2.2 must-revalidate overrides the request's max-stale")
    func mustRevalidateBeatsMaxStale() {
        let stored = Fixture.stored("Cache-Control: max-age=60, must-revalidate", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], request: Fixture.get("Cache-Control: max-stale"), at: 100).summary == "revalidate: stale 40s and must-revalidate")
    }

    @Test("§5.2.2.2 must-revalidate does not affect a fresh response")
    func mustRevalidateFresh() {
        #expect(Fixture.decide([Fixture.stored("Cache-Control: max-age=60, must-revalidate")], at: 10).kind == "fresh")
    }

    @Test("§5.2.2.2 must-revalidate without a validator fetches in full")
    func mustRevalidateWithoutValidator() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: max-age=60, must-revalidate")], at: 100)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.mustRevalidate(staleBy: 40)), candidate: 0)))
    }

    @Test("§5.2.2.2 must-revalidate with only-if-cached and a stale response gives 504")
    func mustRevalidateOnlyIfCached() {
        let stored = Fixture.stored("Cache-Control: max-age=60, must-revalidate", #"ETag: "v1""#)
        let request = Fixture.get("Cache-Control: only-if-cached, max-stale")
        #expect(Fixture.decide([stored], request: request, at: 100) == .unsatisfiable(.onlyIfCached))
    }

    // MARK: §5.2.2.4 no-cache

    @Test("§5.2.2.4 unqualified no-cache: even a fresh response is revalidated")
    func noCacheFresh() {
        let decision = Fixture.decide([Fixture.stored("Cache-Control: no-cache, max-age=600", #"ETag: "v1""#)], at: 1)
        guard let revalidation = Fixture.revalidation(decision) else { return }
        #expect(revalidation.reason == .responseNoCache)
        #expect(decision.reason == "no-cache")
    }

    @Test("§5.2.2.4 unqualified no-cache forbids serving stale under max-stale")
    func noCacheForbidsStale() {
        let stored = Fixture.stored("Cache-Control: no-cache", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], request: Fixture.get("Cache-Control: max-stale"), at: 100).summary == "revalidate: no-cache")
    }

    @Test("§5.2.2.4 qualified no-cache lets the response be served fresh")
    func qualifiedNoCacheFresh() {
        let stored = Fixture.stored(#"Cache-Control: no-cache="Set-Cookie", max-age=600"#, "Set-Cookie: id=1")
        let decision = Fixture.decide([stored], at: 1)
        #expect(decision.kind == "fresh")
        let served = Fixture.privateCache.servedHeaderFields(for: stored, age: 1, revalidated: false)
        #expect(served[.setCookie] == nil)
        #expect(served[.age] == "1")
    }

    @Test("§5.2.2.4 qualified no-cache does not forbid serving stale")
    func qualifiedNoCacheStale() {
        let stored = Fixture.stored(#"Cache-Control: no-cache="Set-Cookie", max-age=60"#)
        #expect(Fixture.decide([stored], request: Fixture.get("Cache-Control: max-stale"), at: 100).kind == "stale")
    }

    // MARK: §5.2.2.8 proxy-revalidate and §5.2.2.10 s-maxage

    /// A response stored at 0 with an ETag, asked for at 100 with `max-stale`, by a cache of one mode.
    struct StaleUnderMaxStale: Sendable, CustomTestStringConvertible {
        let cacheControl: String
        let shared: Bool
        let expected: String

        var testDescription: String { "\(cacheControl) in a \(shared ? "shared" : "private") cache → \(expected)" }
    }

    @Test(
        "§5.2.2.8 proxy-revalidate forbids serving stale in a shared cache, not in a private one; §5.2.2.10 s-maxage implies it in a shared cache",
        arguments: [
            StaleUnderMaxStale(
                cacheControl: "max-age=60, proxy-revalidate", shared: true, expected: "revalidate: stale 40s and must-revalidate"),
            StaleUnderMaxStale(cacheControl: "max-age=60, proxy-revalidate", shared: false, expected: "stale: request max-stale"),
            StaleUnderMaxStale(cacheControl: "s-maxage=60", shared: true, expected: "revalidate: stale 40s and must-revalidate"),
        ])
    func proxyRevalidate(_ testCase: StaleUnderMaxStale) {
        let stored = Fixture.stored("Cache-Control: \(testCase.cacheControl)", #"ETag: "v1""#)
        let decision = Fixture.decide(
            [stored], request: Fixture.get("Cache-Control: max-stale"), at: 100,
            rules: testCase.shared ? Fixture.sharedCache : Fixture.privateCache)
        #expect(decision.summary == testCase.expected)
    }

    @Test("§5.2.2.10 s-maxage gives the lifetime in a shared cache and nothing in a private one")
    func sharedMaxAgeByMode() {
        let stored = Fixture.stored("Cache-Control: max-age=10, s-maxage=600", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 100, rules: Fixture.sharedCache).summary == "fresh: s-maxage=600")
        #expect(Fixture.decide([stored], at: 100).summary == "revalidate: expired 90s ago")
    }

    // MARK: §5.2.2.7 private and §5.2.2.9 public

    @Test("§5.2.2.7 a private cache serves a private response fresh")
    func privateServed() {
        #expect(Fixture.decide([Fixture.stored("Cache-Control: private, max-age=60")], at: 1).summary == "fresh: max-age=60")
    }

    @Test("§5.2.2.9 public lets a shared cache store the answer to an authorised request")
    func publicAuthorization() {
        let request = Fixture.get("Authorization: Basic eDp5")
        let response = Fixture.response(200, "Cache-Control: public, max-age=60")
        #expect(Fixture.sharedCache.storability(request: request, response: response, now: Fixture.t0) == .storable)
        let withoutPublic = Fixture.response(200, "Cache-Control: max-age=60")
        #expect(Fixture.sharedCache.storability(request: request, response: withoutPublic, now: Fixture.t0) == .notStorable(.authorizationInSharedCache))
    }

    // MARK: §5.2.2.6 no-transform

    @Test("§5.2.2.6 no-transform does not change reuse")
    func noTransform() {
        #expect(Fixture.decide([Fixture.stored("Cache-Control: no-transform, max-age=60")], at: 1).kind == "fresh")
        #expect(CacheControl("no-transform").noTransform)
    }
}
