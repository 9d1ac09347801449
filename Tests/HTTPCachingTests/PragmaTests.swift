import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §5.4: Pragma, kept for HTTP/1.0 caches.
@Suite("RFC 9111 §5.4 Pragma")
struct PragmaTests {
    let fresh = Fixture.stored("Cache-Control: max-age=600", #"ETag: "v1""#)

    @Test("§5.4 request Pragma: no-cache without Cache-Control acts as no-cache")
    func pragmaNoCache() {
        let decision = Fixture.decide([fresh], request: Fixture.get("Pragma: no-cache"), at: 10)
        guard case .revalidate(let revalidation) = decision else {
            Issue.record("expected a revalidation, got \(decision)")
            return
        }
        #expect(revalidation.reason == .requestPragmaNoCache)
        #expect(decision.reason == "request Pragma: no-cache")
    }

    @Test("§5.4 the no-cache member is found case-insensitively and in a list", arguments: ["No-Cache", "NO-CACHE", "foo, no-cache", "x=1,no-cache"])
    func pragmaForms(value: String) {
        #expect(Fixture.decide([fresh], request: Fixture.get("Pragma: \(value)"), at: 10).summary == "revalidate: request Pragma: no-cache")
    }

    @Test("§5.4 Pragma is ignored when the request has Cache-Control")
    func ignoredWithCacheControl() {
        #expect(Fixture.decide([fresh], request: Fixture.get("Pragma: no-cache", "Cache-Control: max-stale=5"), at: 10).kind == "fresh")
    }

    @Test("§5.4 other Pragma values have no effect", arguments: ["foo", "no-cache-please", ""])
    func otherValues(value: String) {
        #expect(Fixture.decide([fresh], request: Fixture.get("Pragma: \(value)"), at: 10).kind == "fresh")
    }

    @Test("§5.4 Pragma: no-cache without a validator fetches in full")
    func withoutValidator() {
        let stored = Fixture.stored("Cache-Control: max-age=600")
        let decision = Fixture.decide([stored], request: Fixture.get("Pragma: no-cache"), at: 10)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.requestPragmaNoCache), candidate: 0)))
    }

    @Test("§5.4 Pragma in a response does not stand in for Cache-Control: no-cache")
    func responsePragmaIgnored() {
        let stored = Fixture.stored("Cache-Control: max-age=600", "Pragma: no-cache")
        #expect(Fixture.decide([stored], at: 10).kind == "fresh")
        let response = Fixture.response(200, "Cache-Control: max-age=600", "Pragma: no-cache")
        #expect(Fixture.privateCache.storability(request: Fixture.get(), response: response, now: Fixture.t0) == .storable)
    }

    @Test("§5.4 reload-all sends Pragma: no-cache for HTTP/1.0 caches")
    func reloadAllSendsPragma() {
        let request = Fixture.get()
        let decision = Fixture.decide([fresh], request: request, policy: .reloadIgnoringLocalAndRemoteCacheData, at: 10)
        let outgoing = Fixture.privateCache.networkRequest(for: request, decision: decision, policy: .reloadIgnoringLocalAndRemoteCacheData)
        #expect(outgoing.headerFields[.pragma] == "no-cache")
        #expect(HTTPField.Name.pragma.canonicalName == "pragma")
    }
}
