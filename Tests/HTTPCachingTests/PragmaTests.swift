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
        guard let revalidation = Fixture.revalidation(decision) else { return }
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

    @Test("§5.4 Pragma in a response with Cache-Control does not stand in for no-cache")
    func responsePragmaIgnored() {
        let stored = Fixture.stored("Cache-Control: max-age=600", "Pragma: no-cache")
        #expect(Fixture.decide([stored], at: 10).kind == "fresh")
        let response = Fixture.response(200, "Cache-Control: max-age=600", "Pragma: no-cache")
        #expect(Fixture.privateCache.storability(request: Fixture.get(), response: response, now: Fixture.t0) == .storable)
    }

    // MARK: Response Pragma (a compatibility choice: RFC 9111 leaves it undefined)

    /// A response fresh for 600 s by `Expires` alone, with `Pragma: no-cache`.
    static func pragmaResponse(_ extra: String...) -> StoredResponse {
        let lines = ["Pragma: no-cache", "Expires: \(Fixture.httpDate(600))"] + extra
        return Fixture.stored(lines: lines)
    }

    @Test("response Pragma: no-cache without Cache-Control is stored but validated before every reuse")
    func responsePragmaRevalidates() {
        let decision = Fixture.decide([Self.pragmaResponse(#"ETag: "v1""#)], at: 10)
        guard let revalidation = Fixture.revalidation(decision) else { return }
        #expect(revalidation.reason == .responsePragmaNoCache)
        #expect(revalidation.freshness.isFresh)
        #expect(decision.reason == "Pragma: no-cache")
        let response = Fixture.response(200, "Pragma: no-cache", "Expires: \(Fixture.httpDate(600))", "Date: \(Fixture.httpDate(0))")
        #expect(Fixture.privateCache.storability(request: Fixture.get(), response: response, now: Fixture.t0) == .storable)
    }

    @Test("response Pragma: no-cache is found case-insensitively, in a list and on any line", arguments: [["No-Cache"], ["foo, NO-CACHE"], ["foo", "no-cache"]])
    func responsePragmaForms(values: [String]) {
        let lines = values.map { "Pragma: \($0)" } + ["Expires: \(Fixture.httpDate(600))", #"ETag: "v1""#]
        #expect(Fixture.decide([Fixture.stored(lines: lines)], at: 10).summary == "revalidate: Pragma: no-cache")
    }

    @Test("response Pragma: no-cache without a validator fetches in full")
    func responsePragmaWithoutValidator() {
        let decision = Fixture.decide([Self.pragmaResponse()], at: 10)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.responsePragmaNoCache), candidate: 0)))
        #expect(decision.reason == "Pragma: no-cache, no validator")
    }

    @Test(
        "response Pragma is ignored when the response has Cache-Control, whatever its directives",
        arguments: ["Cache-Control: max-age=600", "Cache-Control: public", "Cache-Control: x-unknown-extension", "Cache-Control: "])
    func responsePragmaIgnoredBesideCacheControl(cacheControl: String) {
        let decision = Fixture.decide([Self.pragmaResponse(cacheControl, #"ETag: "v1""#)], at: 10)
        #expect(decision.kind == "fresh")
    }

    @Test("response Pragma values other than no-cache have no effect", arguments: ["foo", "no-cache-please", "x=no-cache"])
    func responsePragmaOtherValues(value: String) {
        let stored = Fixture.stored("Pragma: \(value)", "Expires: \(Fixture.httpDate(600))")
        #expect(Fixture.decide([stored], at: 10).kind == "fresh")
    }

    @Test("a stale response with Pragma: no-cache is never served stale (max-stale, stale-if-error)")
    func responsePragmaNeverServedStale() {
        let stored = Self.pragmaResponse(#"ETag: "v1""#)
        let maxStale = Fixture.decide([stored], request: Fixture.get("Cache-Control: max-stale"), at: 700)
        #expect(maxStale.summary == "revalidate: Pragma: no-cache")
        let request = Fixture.get("Cache-Control: stale-if-error=3600")
        #expect(Fixture.privateCache.staleIfError(stored: stored, candidate: 0, request: request, failure: "503", now: Fixture.at(700)) == nil)
        // The same response without Pragma may be served stale when the origin fails.
        let plain = Fixture.stored("Expires: \(Fixture.httpDate(600))", #"ETag: "v1""#)
        #expect(Fixture.privateCache.staleIfError(stored: plain, candidate: 0, request: request, failure: "503", now: Fixture.at(700)) != nil)
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
