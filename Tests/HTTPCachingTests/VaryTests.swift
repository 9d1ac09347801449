import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §4.1: calculating cache keys with Vary.
@Suite("RFC 9111 §4.1 Vary")
struct VaryTests {
    func variant(_ requestLines: [String], vary: String = "Accept-Language", date: Double = 0) -> StoredResponse {
        Fixture.stored("Cache-Control: max-age=600", "Vary: \(vary)", received: date, date: date, requestLines: requestLines)
    }

    @Test("§4.1 a request with the same selecting value is served the stored response")
    func match() {
        let decision = Fixture.decide([variant(["Accept-Language: de"])], request: Fixture.get("Accept-Language: de"), at: 10)
        #expect(decision.kind == "fresh")
        #expect(decision.candidate == 0)
    }

    @Test("§4.1 a different selecting value is a miss that names the field")
    func mismatch() {
        let decision = Fixture.decide([variant(["Accept-Language: de"])], request: Fixture.get("Accept-Language: en"), at: 10)
        #expect(decision == .miss(Miss(reason: .varyMismatch(["accept-language"]), candidate: nil)))
        #expect(decision.reason == "Vary mismatch: Accept-Language")
    }

    @Test("§4.1 a field absent from both requests matches")
    func absentBoth() {
        #expect(Fixture.decide([variant([])], request: Fixture.get(), at: 10).kind == "fresh")
    }

    @Test("§4.1 a field absent from one request and present in the other does not match")
    func absentVersusPresent() {
        #expect(Fixture.decide([variant([])], request: Fixture.get("Accept-Language: de"), at: 10).reason == "Vary mismatch: Accept-Language")
        #expect(Fixture.decide([variant(["Accept-Language: de"])], request: Fixture.get(), at: 10).reason == "Vary mismatch: Accept-Language")
    }

    @Test("§4.1 an empty field value is present, not absent")
    func emptyIsPresent() {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: X-Flag"]), requestHeaders: Fixture.fields(["X-Flag: "]))
        #expect(key.fields == [VaryKey.Field(name: "x-flag", value: "")])
        #expect(key.mismatchedFields(for: Fixture.fields([])) == ["x-flag"])
    }

    @Test(
        "§4.1 values are normalised: white space in and around list members",
        arguments: [("gzip,br", "gzip, br"), ("gzip ,  br", "gzip, br"), (" gzip,\tbr ", "gzip, br"), ("gzip;q=1,   br", "gzip;q=1, br")])
    func whitespaceNormalised(stored: String, request: String) {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: Accept-Encoding"]), requestHeaders: Fixture.fields(["Accept-Encoding: \(stored)"]))
        #expect(key.mismatchedFields(for: Fixture.fields(["Accept-Encoding: \(request)"])).isEmpty)
    }

    /// Whether a response stored for a request with `stored` as its value of `field` is
    /// selected by a request with `request` as its value.
    func matches(_ field: String, stored: String, request: String) -> Bool {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: \(field)"]), requestHeaders: Fixture.fields(["\(field): \(stored)"]))
        return key.mismatchedFields(for: Fixture.fields(["\(field): \(request)"])).isEmpty
    }

    @Test(
        "§4.1 a field whose syntax is unknown is compared exactly: inner white space and case count",
        arguments: [
            ("X-Mode", "a  b", "a b"), ("X-Mode", "a,b", "a, b"), ("X-Mode", #""a  b""#, #""a b""#), ("X-Mode", "On", "on"),
            ("User-Agent", "Mozilla/5.0   (X11)", "Mozilla/5.0 (X11)"), ("Cookie", "a=1;b=2", "a=1; b=2"),
        ])
    func unknownFieldsExact(field: String, stored: String, request: String) {
        #expect(!matches(field, stored: stored, request: request))
        #expect(matches(field, stored: stored, request: stored))
    }

    @Test("§4.1 an unknown field's value is trimmed and its lines combined with \", \"")
    func unknownFieldTrimmedAndCombined() {
        let key = VaryKey(
            responseHeaders: Fixture.fields(["Vary: X-Mode"]), requestHeaders: Fixture.fields(["X-Mode: \ta  b ", "X-Mode: c"]))
        #expect(key.fields == [VaryKey.Field(name: "x-mode", value: "a  b, c")])
        #expect(key.mismatchedFields(for: Fixture.fields(["X-Mode: a  b, c"])).isEmpty)
        #expect(key.mismatchedFields(for: Fixture.fields(["X-Mode: a  b,c"])) == ["x-mode"])
    }

    @Test(
        "§4.1 white space inside a quoted string is part of the value",
        arguments: [("Accept", #"text/html;p="a  b""#, #"text/html;p="a b""#), ("Accept-Encoding", #"gzip;x="1  2""#, #"gzip;x="1 2""#)])
    func quotedWhitespaceCounts(field: String, stored: String, request: String) {
        #expect(!matches(field, stored: stored, request: request))
    }

    @Test(
        "§4.1 Accept: what its grammar makes equal matches (RFC 9110 §5.6.6, §8.3.1, §8.3.2)",
        arguments: [
            ("text/html;charset=UTF-8", "text/html;charset=utf-8"),  // charset values are case-insensitive
            ("Text/HTML;Charset=\"utf-8\"", "text/html; charset=utf-8"),  // RFC 9110 §8.3.1's own example
            ("text/html ; q=0.5,  */*", "text/html;q=0.5, */*"),  // OWS around ";" and ","
            ("application/x;v=\"abc\"", "application/x;v=abc"),  // a quoted token is the token
            ("text/html;;q=1,,text/plain", "text/html;q=1, text/plain"),  // empty parameters and elements
            ("TEXT/*;Q=0.8", "text/*;q=0.8"),  // media types and parameter names are case-insensitive
        ])
    func acceptEquivalent(stored: String, request: String) {
        #expect(matches("Accept", stored: stored, request: request))
    }

    @Test(
        "§4.1 Accept: parameter values other than charset keep their case, and quoted strings their content",
        arguments: [
            ("application/x;v=ABC", "application/x;v=abc"),
            ("application/x;v=\"A b\"", "application/x;v=\"a b\""),
            ("text/html;level=1", "text/html"),
            ("text/html, text/plain", "text/plain, text/html"),
        ])
    func acceptDifferent(stored: String, request: String) {
        #expect(!matches("Accept", stored: stored, request: request))
    }

    @Test(
        "§4.1 a known field whose value does not follow its grammar is compared exactly",
        arguments: [("Accept", "text/html; q", "text/html;q"), ("Accept", "text", "TEXT"), ("Accept-Encoding", "gzip br", "gzip  br")])
    func malformedKnownFieldExact(field: String, stored: String, request: String) {
        #expect(!matches(field, stored: stored, request: request))
        #expect(matches(field, stored: stored, request: stored))
    }

    @Test(
        "§4.1 the normalised value is itself normalised: a stored value sent again selects its response",
        arguments: [
            ("Accept", #"Text/HTML ; Charset="UTF-8";p="a \"b\"",  application/x;v=ABC"#), ("Accept", "text/html; q"),
            ("Accept-Encoding", "GZIP ;Q=1, ,br"), ("Accept-Language", "DE-de, en;q=0.5"), ("X-Mode", "a  b,c"),
        ])
    func normalisationIsStable(field: String, value: String) throws {
        let vary = Fixture.fields(["Vary: \(field)"])
        let key = VaryKey(responseHeaders: vary, requestHeaders: Fixture.fields(["\(field): \(value)"]))
        let stored = try #require(key.fields.first?.value)
        #expect(VaryKey(responseHeaders: vary, requestHeaders: Fixture.fields(["\(field): \(stored)"])) == key)
    }

    @Test("§4.1 canonical forms of the Accept fields")
    func canonicalForms() {
        func value(_ field: String, _ text: String) -> String? {
            VaryKey(responseHeaders: Fixture.fields(["Vary: \(field)"]), requestHeaders: Fixture.fields(["\(field): \(text)"])).fields.first?.value
        }
        #expect(value("Accept", #"Text/HTML ; Charset="UTF-8" ; p="a  b", */*;q=0.1"#) == #"text/html;charset=utf-8;p="a  b", */*;q=0.1"#)
        #expect(value("Accept", #"a/b;p="x\"y""#) == #"a/b;p="x\"y""#)
        #expect(value("Accept-Encoding", "GZIP;Q=1.0 , br") == "gzip;q=1.0, br")
        #expect(value("Accept-Language", "EN-us,  de;q=0.5") == "en-us, de;q=0.5")
        #expect(value("Accept-Charset", "UTF-8, *;q=0.1") == "utf-8, *;q=0.1")
        #expect(value("Accept-Encoding", "") == "")
    }

    @Test("§4.1 Accept-* values compare without regard to case")
    func acceptCaseInsensitive() {
        let decision = Fixture.decide([variant(["Accept-Language: DE-de"])], request: Fixture.get("Accept-Language: de-DE"), at: 10)
        #expect(decision.kind == "fresh")
    }

    @Test("§4.1 other fields keep their case")
    func otherFieldsCaseSensitive() {
        let decision = Fixture.decide([variant(["X-Api-Version: ABC"], vary: "X-Api-Version")], request: Fixture.get("X-Api-Version: abc"), at: 10)
        #expect(decision.reason == "Vary mismatch: X-Api-Version")
    }

    @Test("§4.1 several field lines are combined as one list")
    func multipleLines() {
        let stored = variant(["Accept-Encoding: gzip", "Accept-Encoding: br"], vary: "Accept-Encoding")
        #expect(Fixture.decide([stored], request: Fixture.get("Accept-Encoding: gzip, br"), at: 10).kind == "fresh")
        #expect(Fixture.decide([stored], request: Fixture.get("Accept-Encoding: br, gzip"), at: 10).kind == "miss")
    }

    @Test("§4.1 Vary names are case-insensitive, read from every line and deduplicated")
    func varyNames() {
        let names = VaryKey.varyNames(Fixture.fields(["Vary: Accept-Language, accept-language", "Vary: ACCEPT-ENCODING"]))
        #expect(names == ["accept-language", "accept-encoding"])
    }

    @Test("§4.1 Vary: * never matches any request")
    func wildcard() {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: Accept, *"]), requestHeaders: Fixture.fields(["Accept: a/b"]))
        #expect(key.isWildcard)
        #expect(key.fields.isEmpty)
        #expect(key.mismatchedFields(for: Fixture.fields(["Accept: a/b"])) == ["*"])
        #expect(key.signature == "*")
    }

    /// When a matching response was received and the Date it carries, in seconds after t0.
    struct Receipt: Sendable, CustomStringConvertible {
        let received: Double
        let date: Double

        var stored: StoredResponse {
            Fixture.stored("Cache-Control: max-age=600", requested: received, received: received, date: date)
        }
        var description: String { "received at \(Int(received)) with Date \(Int(date))" }
    }

    @Test(
        "§4.1 among matching responses the most recent (by Date) is used, in any order; with equal Dates the later receipt",
        arguments: [
            (Receipt(received: 10, date: 0), Receipt(received: 5, date: 5)),  // by Date, although received earlier
            (Receipt(received: 1, date: 0), Receipt(received: 2, date: 0)),  // equal Dates: by receipt
        ])
    func mostRecent(older: Receipt, newer: Receipt) {
        #expect(Fixture.decide([older.stored, newer.stored], at: 20).candidate == 1)
        #expect(Fixture.decide([newer.stored, older.stored], at: 20).candidate == 0)
    }

    @Test("§4.1 the variant matching the request is chosen among several")
    func variantChosen() {
        let candidates = [variant(["Accept-Language: de"]), variant(["Accept-Language: en"]), variant(["Accept-Language: fr"])]
        #expect(Fixture.decide(candidates, request: Fixture.get("Accept-Language: en"), at: 10).candidate == 1)
        #expect(Fixture.privateCache.select(from: candidates, for: Fixture.fields(["Accept-Language: fr"])).index == 2)
    }

    @Test("§4.1 a mismatch lists each differing field once")
    func mismatchListsFields() {
        let candidates = [
            variant(["Accept-Language: de", "Accept-Encoding: gzip"], vary: "Accept-Language, Accept-Encoding"),
            variant(["Accept-Language: en", "Accept-Encoding: gzip"], vary: "Accept-Language, Accept-Encoding"),
        ]
        let selection = Fixture.privateCache.select(from: candidates, for: Fixture.fields(["Accept-Language: fr", "Accept-Encoding: br"]))
        #expect(selection.index == nil)
        #expect(selection.mismatched == ["accept-language", "accept-encoding"])
        let decision = Fixture.decide(candidates, request: Fixture.get("Accept-Language: fr", "Accept-Encoding: br"), at: 10)
        #expect(decision.reason == "Vary mismatch: Accept-Language, Accept-Encoding")
    }

    @Test("§4.1 a response without Vary matches every request")
    func noVary() {
        let stored = Fixture.stored("Cache-Control: max-age=600")
        #expect(stored.varyKey == .none)
        #expect(Fixture.decide([stored], request: Fixture.get("Accept-Language: xx"), at: 10).kind == "fresh")
    }

    @Test("§4.1 the Vary key has a stable signature for the store")
    func signature() {
        let key = VaryKey(
            responseHeaders: Fixture.fields(["Vary: Accept-Language, Accept-Encoding"]),
            requestHeaders: Fixture.fields(["Accept-Language: DE"]))
        #expect(key.signature == #"accept-language="de"&accept-encoding=-"#)
        #expect(key.description == key.signature)
        #expect(VaryKey.none.signature == "")
        #expect(VaryKey.none.description == "(no Vary)")
    }

    @Test("§4.1 a Vary key survives JSON encoding")
    func codable() throws {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: Accept"]), requestHeaders: Fixture.fields(["Accept: text/html"]))
        #expect(try JSONDecoder().decode(VaryKey.self, from: JSONEncoder().encode(key)) == key)
    }
}
