import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §4.3: validation — sending conditional requests and handling 304.
@Suite("RFC 9111 §4.3 validation")
struct ValidationTests {
    let rules = Fixture.privateCache

    // MARK: §4.3.1 sending a validation request

    @Test("§4.3.1 one stored response: its ETag and its Last-Modified are sent")
    func singleResponse() {
        let stored = [Fixture.stored(#"ETag: "v1""#, "Last-Modified: \(Fixture.httpDate(-60))")]
        let headers = rules.conditionalHeaders(validating: 0, among: stored)
        #expect(headers == ConditionalHeaders(ifNoneMatch: [EntityTag(opaqueTag: "v1")], ifModifiedSince: Fixture.at(-60)))
        #expect(headers.ifNoneMatchValue == #""v1""#)
        #expect(headers.ifModifiedSinceValue == "Wed, 01 Jan 2025 11:59:00 GMT")
    }

    @Test("§4.3.1 the conditional values are written when the response is stored, and taken from it as written")
    func valuesDerivedWhenStored() {
        let stored = Fixture.stored(#"ETag: W/"v1""#, "Last-Modified: \(Fixture.httpDate(-60))")
        #expect(stored.ifNoneMatchValue == #"W/"v1""#)
        #expect(stored.ifModifiedSinceValue == "Wed, 01 Jan 2025 11:59:00 GMT")
        let headers = rules.conditionalHeaders(validating: 0, among: [stored])
        #expect(headers.ifNoneMatchValue == stored.ifNoneMatchValue)
        #expect(headers.ifModifiedSinceValue == stored.ifModifiedSinceValue)
        // The same values as headers made from the validators alone.
        let made = ConditionalHeaders(ifNoneMatch: [EntityTag(opaqueTag: "v1", isWeak: true)], ifModifiedSince: Fixture.at(-60))
        #expect(headers == made)
        #expect(headers.ifNoneMatchValue == made.ifNoneMatchValue && headers.ifModifiedSinceValue == made.ifModifiedSinceValue)
        let bare = Fixture.stored("Cache-Control: max-age=1")
        #expect(bare.ifNoneMatchValue == nil && bare.ifModifiedSinceValue == nil)
    }

    @Test("§4.3.4 a freshened response keeps its conditional values, and writes new ones for new validators")
    func freshenedValues() {
        let stored = Fixture.stored(#"ETag: "v1""#, "Last-Modified: \(Fixture.httpDate(-60))")
        let same = stored.replacing(headerFields: stored.response.headerFields, requestTime: Fixture.at(10), responseTime: Fixture.at(10))
        #expect(same.ifNoneMatchValue == #""v1""#)
        #expect(same.ifModifiedSinceValue == Fixture.httpDate(-60))
        var fields = stored.response.headerFields
        fields[.eTag] = #""v2""#
        fields[.lastModified] = Fixture.httpDate(0)
        let changed = stored.replacing(headerFields: fields, requestTime: Fixture.at(10), responseTime: Fixture.at(10))
        #expect(changed.ifNoneMatchValue == #""v2""#)
        #expect(changed.ifModifiedSinceValue == Fixture.httpDate(0))
        fields[.eTag] = nil
        fields[.lastModified] = nil
        let bare = stored.replacing(headerFields: fields, requestTime: Fixture.at(10), responseTime: Fixture.at(10))
        #expect(bare.ifNoneMatchValue == nil && bare.ifModifiedSinceValue == nil)
    }

    @Test("§4.3.1 the ETags of all stored responses are sent, the selected one first, without If-Modified-Since")
    func allEntityTags() {
        let stored = [
            Fixture.stored(#"ETag: "de""#, "Last-Modified: \(Fixture.httpDate(-60))"),
            Fixture.stored(#"ETag: W/"en""#, "Last-Modified: \(Fixture.httpDate(-60))"),
            Fixture.stored(#"ETag: "de""#),
        ]
        let headers = rules.conditionalHeaders(validating: 1, among: stored)
        #expect(headers.ifNoneMatch == [EntityTag(opaqueTag: "en", isWeak: true), EntityTag(opaqueTag: "de")])
        #expect(headers.ifNoneMatchValue == #"W/"en", "de""#)
        #expect(headers.ifModifiedSince == nil)
    }

    @Test("§4.3.1 Last-Modified alone gives If-Modified-Since alone")
    func lastModifiedOnly() {
        let headers = rules.conditionalHeaders(validating: 0, among: [Fixture.stored("Last-Modified: \(Fixture.httpDate(-60))")])
        #expect(headers.ifNoneMatch.isEmpty && headers.ifNoneMatchValue == nil)
        #expect(headers.ifModifiedSince == Fixture.at(-60))
    }

    @Test("§4.3.1 no validator gives no conditional headers")
    func noValidator() {
        let headers = rules.conditionalHeaders(validating: 0, among: [Fixture.stored("Cache-Control: max-age=1")])
        #expect(headers.isEmpty)
        #expect(headers.ifModifiedSinceValue == nil)
    }

    @Test("§4.3.1 applying conditional headers replaces the caller's")
    func applyReplaces() {
        var fields = Fixture.fields([#"If-None-Match: "mine""#, "If-Modified-Since: yesterday", "Accept: */*"])
        ConditionalHeaders(ifNoneMatch: [EntityTag(opaqueTag: "v1")], ifModifiedSince: nil).apply(to: &fields)
        #expect(fields[values: .ifNoneMatch] == [#""v1""#])
        #expect(fields[.ifModifiedSince] == nil)
        #expect(fields[.accept] == "*/*")
    }

    @Test("§4.3.1 the request sent for a revalidation carries the validators")
    func networkRequestConditional() {
        let stored = [Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#, "Last-Modified: \(Fixture.httpDate(-60))")]
        let request = Fixture.get("Accept: text/html")
        let decision = Fixture.decide(stored, request: request, at: 100)
        let outgoing = rules.networkRequest(for: request, decision: decision, policy: .useProtocolCachePolicy)
        #expect(outgoing.headerFields[.ifNoneMatch] == #""v1""#)
        #expect(outgoing.headerFields[.ifModifiedSince] == "Wed, 01 Jan 2025 11:59:00 GMT")
        #expect(outgoing.headerFields[.accept] == "text/html")
        #expect(outgoing.method == .get && outgoing.path == "/articles/1")
    }

    @Test("§4.3.1 a HEAD revalidation is sent as a conditional HEAD")
    func headRevalidation() {
        let stored = [Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)]
        let request = Fixture.request(.head)
        let decision = Fixture.decide(stored, request: request, at: 100)
        let outgoing = rules.networkRequest(for: request, decision: decision, policy: .useProtocolCachePolicy)
        #expect(outgoing.method == .head)
        #expect(outgoing.headerFields[.ifNoneMatch] == #""v1""#)
    }

    @Test("§4.3.1 the revalidation of one variant carries every variant's ETag")
    func decisionCarriesAllTags() {
        let stored = [
            Fixture.stored("Cache-Control: max-age=60", "Vary: Accept-Language", #"ETag: "de""#, requestLines: ["Accept-Language: de"]),
            Fixture.stored("Cache-Control: max-age=60", "Vary: Accept-Language", #"ETag: "en""#, requestLines: ["Accept-Language: en"]),
        ]
        guard case .revalidate(let revalidation) = Fixture.decide(stored, request: Fixture.get("Accept-Language: en"), at: 100) else {
            Issue.record("expected a revalidation")
            return
        }
        #expect(revalidation.candidate == 1)
        #expect(revalidation.conditionalHeaders.ifNoneMatchValue == #""en", "de""#)
    }

    @Test("§4.3.1 a miss sends the request unchanged")
    func networkRequestMiss() {
        let request = Fixture.get("Accept: text/html")
        let outgoing = rules.networkRequest(for: request, decision: Fixture.decide([], request: request, at: 0), policy: .useProtocolCachePolicy)
        #expect(outgoing == request)
    }

    @Test("§5.2.1.4 reload-all sends Cache-Control: no-cache and Pragma: no-cache")
    func networkRequestReloadAll() {
        let request = Fixture.get("Cache-Control: max-age=5")
        let decision = Fixture.decide([], request: request, policy: .reloadIgnoringLocalAndRemoteCacheData, at: 0)
        let outgoing = rules.networkRequest(for: request, decision: decision, policy: .reloadIgnoringLocalAndRemoteCacheData)
        #expect(outgoing.headerFields[values: .cacheControl] == ["no-cache"])
        #expect(outgoing.headerFields[values: .pragma] == ["no-cache"])
    }

    @Test("§4.3.1 reload (local only) sends the request unchanged")
    func networkRequestReload() {
        let request = Fixture.get()
        let decision = Fixture.decide([], request: request, policy: .reloadIgnoringLocalCacheData, at: 0)
        #expect(rules.networkRequest(for: request, decision: decision, policy: .reloadIgnoringLocalCacheData) == request)
    }

    // MARK: §4.3.4 freshening with a 304

    @Test("§4.3.4 a strong ETag in the 304 selects every stored response with that tag")
    func freshenStrong() {
        let stored = [
            Fixture.stored(#"ETag: "a""#), Fixture.stored(#"ETag: "b""#), Fixture.stored(#"ETag: "a""#), Fixture.stored(#"ETag: W/"a""#),
        ]
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304, #"ETag: "a""#), candidates: stored, validated: 1, now: Fixture.at(100)) == [0, 2])
    }

    @Test("§4.3.4 a weak ETag selects the most recent matching response")
    func freshenWeak() {
        let stored = [
            Fixture.stored(#"ETag: W/"a""#, received: 10), Fixture.stored(#"ETag: "a""#, received: 30), Fixture.stored(#"ETag: W/"a""#, received: 20),
            Fixture.stored(#"ETag: W/"b""#, received: 40),
        ]
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304, #"ETag: W/"a""#), candidates: stored, validated: 0, now: Fixture.at(100)) == [1])
    }

    @Test("§4.3.4 a Last-Modified selects the most recent response with that date")
    func freshenLastModified() {
        let lm = "Last-Modified: \(Fixture.httpDate(-100))"
        let stored = [
            Fixture.stored(lm, received: 20), Fixture.stored(lm, received: 10), Fixture.stored("Last-Modified: \(Fixture.httpDate(-50))", received: 30),
        ]
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304, lm), candidates: stored, validated: nil, now: Fixture.at(100)) == [0])
    }

    @Test("§4.3.4 a 304 without validators freshens the validated response")
    func freshenWithoutValidator() {
        let stored = [Fixture.stored(#"ETag: "a""#), Fixture.stored(#"ETag: "b""#)]
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304), candidates: stored, validated: 1, now: Fixture.at(100)) == [1])
    }

    @Test("§4.3.4 a 304 without validators and no validated response freshens a lone validator-less response")
    func freshenLoneWithoutValidator() {
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304), candidates: [Fixture.stored("Cache-Control: max-age=1")], validated: nil, now: Fixture.at(100)) == [0])
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304), candidates: [Fixture.stored(#"ETag: "a""#)], validated: nil, now: Fixture.at(100)) == [])
    }

    @Test("§4.3.4 a 304 whose ETag matches nothing freshens nothing")
    func freshenNoMatch() {
        let stored = [Fixture.stored(#"ETag: "a""#)]
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304, #"ETag: "z""#), candidates: stored, validated: 0, now: Fixture.at(100)) == [])
        #expect(rules.responsesToFreshen(notModified: Fixture.response(304, #"ETag: W/"z""#), candidates: stored, validated: 0, now: Fixture.at(100)) == [])
    }

    @Test("§4.3.4 a freshened response is fresh again")
    func freshenedIsFresh() {
        let stored = Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 100).kind == "revalidate")
        let updated = rules.freshen(stored, with: Fixture.response(304, #"ETag: "v1""#), requestTime: Fixture.at(100), responseTime: Fixture.at(101))
        #expect(Fixture.decide([updated], at: 110).summary == "fresh: max-age=60")
        #expect(rules.currentAge(of: updated, now: Fixture.at(110)) == 10)
    }
}
