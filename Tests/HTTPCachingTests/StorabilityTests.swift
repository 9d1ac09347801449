import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §3: when a response may be stored.
@Suite("RFC 9111 §3 storing responses")
struct StorabilityTests {
    let lastModified = "Last-Modified: \(Fixture.httpDate(-86_400))"

    func storability(
        _ response: HTTPResponse, request: HTTPRequest = Fixture.get(), rules: CacheRules = Fixture.privateCache
    ) -> Storability {
        rules.storability(request: request, response: response, now: Fixture.t0)
    }

    @Test("§3 a 200 with max-age is storable")
    func plainStorable() {
        let result = storability(Fixture.response(200, "Cache-Control: max-age=60"))
        #expect(result == .storable)
        #expect(result.isStorable)
    }

    @Test("§3 only responses to GET are stored", arguments: [HTTPRequest.Method.post, .put, .delete, .head, .options])
    func methodNotCacheable(method: HTTPRequest.Method) {
        let result = storability(Fixture.response(200, "Cache-Control: max-age=60"), request: Fixture.request(method))
        #expect(result == .notStorable(.methodNotCacheable(method.rawValue)))
        #expect(!result.isStorable)
    }

    @Test("§3 1xx responses are not final and never stored", arguments: [100, 103])
    func informational(status: Int) {
        #expect(storability(Fixture.response(status, "Cache-Control: max-age=60")) == .notStorable(.statusNotFinal(status)))
    }

    @Test("§3.3 206 partial content is not stored (no Range support)")
    func partialContent() {
        #expect(storability(Fixture.response(206, "Cache-Control: max-age=60")) == .notStorable(.partialContent))
    }

    @Test("§4.3.4 a 304 is not stored on its own")
    func notModified() {
        #expect(storability(Fixture.response(304, "Cache-Control: max-age=60")) == .notStorable(.notModified))
    }

    @Test(
        "§3 status classes: heuristically cacheable statuses are storable with a validator, others need explicit freshness",
        arguments: [
            (200, true), (203, true), (204, true), (300, true), (301, true), (308, true), (404, true), (405, true),
            (410, true), (414, true), (501, true),
            (201, false), (302, false), (303, false), (307, false), (400, false), (403, false), (500, false), (503, false),
        ])
    func statusClasses(status: Int, storable: Bool) {
        let result = storability(Fixture.response(status, lastModified))
        #expect(result == (storable ? .storable : .notStorable(.notCacheableStatus(status))))
    }

    @Test("§3 explicit freshness makes any final status storable", arguments: [201, 302, 307, 400, 500, 503])
    func explicitFreshness(status: Int) {
        #expect(storability(Fixture.response(status, "Cache-Control: max-age=60")) == .storable)
        #expect(storability(Fixture.response(status, "Expires: \(Fixture.httpDate(60))")) == .storable)
    }

    @Test("§5.2.2.9 public makes a status storable that is not heuristically cacheable")
    func publicStatus() {
        #expect(storability(Fixture.response(302, "Cache-Control: public", lastModified)) == .storable)
    }

    @Test("§3 s-maxage is explicit freshness for a shared cache only")
    func sharedMaxAgeExplicit() {
        let response = Fixture.response(302, "Cache-Control: s-maxage=60")
        #expect(storability(response, rules: Fixture.sharedCache) == .storable)
        #expect(storability(response) == .notStorable(.notCacheableStatus(302)))
    }

    @Test("§3 private counts as explicit in a private cache")
    func privateExplicit() {
        #expect(storability(Fixture.response(302, "Cache-Control: private, max-age=60")) == .storable)
        #expect(storability(Fixture.response(302, "Cache-Control: private", lastModified)) == .storable)
    }

    @Test("§5.2.2.3 response no-store forbids storing")
    func responseNoStore() {
        #expect(storability(Fixture.response(200, "Cache-Control: no-store, max-age=60")) == .notStorable(.responseNoStore))
    }

    @Test("§5.2.1.5 request no-store forbids storing the response")
    func requestNoStore() {
        let result = storability(Fixture.response(200, "Cache-Control: max-age=60"), request: Fixture.get("Cache-Control: no-store"))
        #expect(result == .notStorable(.requestNoStore))
    }

    @Test("§5.2.2.3 must-understand with an understood status overrides no-store")
    func mustUnderstandUnderstood() {
        let response = Fixture.response(200, "Cache-Control: must-understand, no-store, max-age=60")
        #expect(storability(response) == .storable)
    }

    @Test("§5.2.2.3 must-understand with a status the cache does not understand is not stored")
    func mustUnderstandUnknownStatus() {
        let response = Fixture.response(299, "Cache-Control: must-understand, no-store, max-age=60")
        #expect(storability(response) == .notStorable(.statusNotUnderstood(299)))
    }

    @Test("§5.2.2.7 a shared cache does not store a private response")
    func privateShared() {
        let response = Fixture.response(200, "Cache-Control: private, max-age=60")
        #expect(storability(response, rules: Fixture.sharedCache) == .notStorable(.privateInSharedCache))
        #expect(storability(response) == .storable)
    }

    @Test("§5.2.2.7 a shared cache stores a response with qualified private (without those fields)")
    func privateQualifiedShared() {
        let response = Fixture.response(200, #"Cache-Control: private="X-Secret", max-age=60"#)
        #expect(storability(response, rules: Fixture.sharedCache) == .storable)
    }

    @Test("§3.5 a shared cache does not store answers to requests with Authorization")
    func authorizationShared() {
        let result = storability(
            Fixture.response(200, "Cache-Control: max-age=60"), request: Fixture.get("Authorization: Bearer t"),
            rules: Fixture.sharedCache)
        #expect(result == .notStorable(.authorizationInSharedCache))
    }

    @Test(
        "§3.5 public, s-maxage or must-revalidate let a shared cache store answers to Authorization",
        arguments: ["public, max-age=60", "s-maxage=60", "must-revalidate, max-age=60"])
    func authorizationAllowed(cacheControl: String) {
        let result = storability(
            Fixture.response(200, "Cache-Control: \(cacheControl)"), request: Fixture.get("Authorization: Bearer t"),
            rules: Fixture.sharedCache)
        #expect(result == .storable)
    }

    @Test("§3.5 a private cache stores answers to requests with Authorization")
    func authorizationPrivate() {
        let result = storability(Fixture.response(200, "Cache-Control: max-age=60"), request: Fixture.get("Authorization: Bearer t"))
        #expect(result == .storable)
    }

    @Test("§4.1 a response with Vary: * is never stored", arguments: ["*", "Accept, *", " * "])
    func varyAsterisk(vary: String) {
        #expect(storability(Fixture.response(200, "Cache-Control: max-age=60", "Vary: \(vary)")) == .notStorable(.varyAsterisk))
    }

    @Test("§3 a response with neither freshness nor a validator is not stored")
    func noFreshnessNorValidator() {
        #expect(storability(Fixture.response(200)) == .notStorable(.noFreshnessNorValidator))
        #expect(storability(Fixture.response(200, "Cache-Control: no-cache")) == .notStorable(.noFreshnessNorValidator))
        #expect(storability(Fixture.response(200, "Cache-Control: max-age=0")) == .notStorable(.noFreshnessNorValidator))
    }

    @Test("§5.3 an invalid Expires without a validator gives nothing reusable")
    func invalidExpiresAlone() {
        #expect(storability(Fixture.response(200, "Expires: 0")) == .notStorable(.noFreshnessNorValidator))
    }

    @Test("§3 a validator alone makes a response worth storing", arguments: [#"ETag: "v1""#, "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT"])
    func validatorAlone(line: String) {
        let rules = CacheRules(configuration: CacheRulesConfiguration(heuristicFreshness: false))
        #expect(storability(Fixture.response(200, "Cache-Control: no-cache", line), rules: rules) == .storable)
    }

    @Test("RFC 5861 a stale-while-revalidate or stale-if-error allowance makes max-age=0 worth storing")
    func staleAllowance() {
        #expect(storability(Fixture.response(200, "Cache-Control: max-age=0, stale-while-revalidate=30")) == .storable)
        #expect(storability(Fixture.response(200, "Cache-Control: max-age=0, stale-if-error=30")) == .storable)
    }

    @Test(
        "§3 each reason for not storing reads as a sentence fragment",
        arguments: [
            (NotStorableReason.methodNotCacheable("POST"), "method POST is not cacheable"),
            (.statusNotFinal(100), "status 100 is not final"),
            (.partialContent, "206 partial content (no Range support)"),
            (.notModified, "304 is not storable on its own"),
            (.statusNotUnderstood(299), "must-understand and status 299 not understood"),
            (.responseNoStore, "no-store"),
            (.requestNoStore, "request no-store"),
            (.privateInSharedCache, "private (shared cache)"),
            (.authorizationInSharedCache, "Authorization in request (shared cache)"),
            (.varyAsterisk, "Vary: *"),
            (.notCacheableStatus(302), "status 302 without explicit freshness"),
            (.noFreshnessNorValidator, "no freshness information and no validator"),
        ])
    func reasonText(reason: NotStorableReason, text: String) {
        #expect(reason.description == text)
    }
}
