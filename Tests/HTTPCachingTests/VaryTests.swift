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

    @Test("§4.1 runs of white space inside a member collapse")
    func innerWhitespace() {
        let key = VaryKey(responseHeaders: Fixture.fields(["Vary: User-Agent"]), requestHeaders: Fixture.fields(["User-Agent: Mozilla/5.0   (X11)"]))
        #expect(key.fields == [VaryKey.Field(name: "user-agent", value: "Mozilla/5.0 (X11)")])
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

    @Test("§4.1 among matching responses the most recent (by Date) is used, in any order")
    func mostRecentByDate() {
        let old = Fixture.stored("Cache-Control: max-age=600", requested: 10, received: 10, date: 0)
        let new = Fixture.stored("Cache-Control: max-age=600", requested: 5, received: 5, date: 5)
        #expect(Fixture.decide([old, new], at: 20).candidate == 1)
        #expect(Fixture.decide([new, old], at: 20).candidate == 0)
    }

    @Test("§4.1 among responses with equal Dates the later receipt is used")
    func mostRecentByReceipt() {
        let first = Fixture.stored("Cache-Control: max-age=600", requested: 1, received: 1, date: 0)
        let second = Fixture.stored("Cache-Control: max-age=600", requested: 2, received: 2, date: 0)
        #expect(Fixture.decide([second, first], at: 20).candidate == 0)
        #expect(Fixture.decide([first, second], at: 20).candidate == 1)
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
