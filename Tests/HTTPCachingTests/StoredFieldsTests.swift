import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §3.1 (which header fields are stored), §3.2 (updating them) and §5.1 (Age on serving).
@Suite("RFC 9111 §3.1 and §3.2 stored header fields")
struct StoredFieldsTests {
    let rules = Fixture.privateCache

    func store(_ response: HTTPResponse, request: HTTPRequest = Fixture.get(), rules: CacheRules = Fixture.privateCache) -> StoredResponse {
        rules.storedResponse(key: Fixture.key, request: request, response: response, requestTime: Fixture.at(-1), responseTime: Fixture.at(0))
    }

    // MARK: §3.1 storing

    /// The Date added was the arrival time cut to its second: a response arriving at .9 of a
    /// second was 0.9 s old at once, and `max-age=1` stale a tenth of a second later.
    @Test("§4.2.3 a Date added to a response without one gives it no age at arrival")
    func addedDateGivesNoAge() throws {
        let arrival = Fixture.at(0.9)
        let stored = rules.storedResponse(
            key: Fixture.key, request: Fixture.get(), response: Fixture.response(200, "Cache-Control: max-age=1"),
            requestTime: arrival, responseTime: arrival)
        #expect(stored.response.headerFields[.date] != nil)
        #expect(rules.freshness(of: stored, now: arrival).age == 0)
        #expect(rules.freshness(of: stored, now: arrival.addingTimeInterval(0.5)).isFresh)
        // A 304 without Date freshens with the same rounding (it was rounded down there).
        let later = arrival.addingTimeInterval(10)
        let freshened = rules.freshen(stored, with: HTTPResponse(status: .notModified), requestTime: later, responseTime: later)
        #expect(rules.freshness(of: freshened, now: later).age == 0)
    }

    @Test("§3.1 hop-by-hop fields are not stored")
    func hopByHopDropped() {
        let stored = store(
            Fixture.response(
                200, "Cache-Control: max-age=60", "Connection: keep-alive", "Keep-Alive: timeout=5", "Proxy-Connection: close",
                "TE: trailers", "Transfer-Encoding: chunked", "Upgrade: h2c", "Content-Type: text/plain"))
        let names = stored.response.headerFields.map(\.name.canonicalName)
        #expect(names == ["cache-control", "content-type", "date"])
    }

    @Test("§3.1 fields named by Connection are not stored")
    func connectionListed() {
        let stored = store(Fixture.response(200, "Connection: X-Hop, close", "X-Hop: 1", "X-Kept: 2", "Cache-Control: max-age=60"))
        #expect(stored.response.headerFields[HTTPField.Name("X-Hop")!] == nil)
        #expect(stored.response.headerFields[HTTPField.Name("X-Kept")!] == "2")
        #expect(stored.response.headerFields[.connection] == nil)
    }

    @Test("§4.2.3 a missing Date is added from the receipt time")
    func dateAdded() {
        let stored = store(Fixture.response(200, "Cache-Control: max-age=60"))
        #expect(stored.response.headerFields[.date] == Fixture.httpDate(0))
        #expect(stored.date == Fixture.at(0))
    }

    @Test("§4.2.3 an existing Date is kept")
    func dateKept() {
        let stored = store(Fixture.response(200, "Cache-Control: max-age=60", "Date: \(Fixture.httpDate(-30))"))
        #expect(stored.response.headerFields[values: .date] == [Fixture.httpDate(-30)])
        #expect(stored.date == Fixture.at(-30))
    }

    @Test("§4.1 the Vary secondary key is recorded from the request")
    func varyRecorded() {
        let stored = store(
            Fixture.response(200, "Cache-Control: max-age=60", "Vary: Accept-Language, Accept-Encoding"),
            request: Fixture.get("Accept-Language: de"))
        #expect(stored.varyKey.fields == [VaryKey.Field(name: "accept-language", value: "de"), VaryKey.Field(name: "accept-encoding", value: nil)])
        #expect(stored.varyNames == ["accept-language", "accept-encoding"])
    }

    @Test("§3.1 request and response times are recorded for age")
    func timesRecorded() {
        let stored = store(Fixture.response(200, "Cache-Control: max-age=60"))
        #expect(stored.requestTime == Fixture.at(-1))
        #expect(stored.responseTime == Fixture.at(0))
        #expect(stored.key == Fixture.key)
        #expect(stored.status == 200)
    }

    @Test("§5.2.2.7 a shared cache drops the fields named by qualified private")
    func privateFieldsShared() {
        let response = Fixture.response(200, #"Cache-Control: private="X-Secret", max-age=60"#, "X-Secret: 42", "X-Public: 1")
        let shared = store(response, rules: Fixture.sharedCache)
        #expect(shared.response.headerFields[HTTPField.Name("X-Secret")!] == nil)
        #expect(shared.response.headerFields[HTTPField.Name("X-Public")!] == "1")
        let privateCopy = store(response)
        #expect(privateCopy.response.headerFields[HTTPField.Name("X-Secret")!] == "42")
    }

    // MARK: Parsing the stored fields

    @Test("§5.3 Expires: absent, a date, or invalid (already expired)")
    func expiresValues() {
        #expect(Fixture.stored("Cache-Control: max-age=1").expires == .absent)
        #expect(Fixture.stored("Expires: \(Fixture.httpDate(60))").expires == .date(Fixture.at(60)))
        #expect(Fixture.stored("Expires: 0").expires == .invalid("0"))
        #expect(Fixture.stored("Expires: -1").expires == .invalid("-1"))
    }

    @Test("§8.8 validators are parsed: ETag and Last-Modified")
    func validators() {
        let stored = Fixture.stored(#"ETag: W/"v1""#, "Last-Modified: \(Fixture.httpDate(-60))")
        #expect(stored.entityTag == EntityTag(opaqueTag: "v1", isWeak: true))
        #expect(stored.lastModified == Fixture.at(-60))
        #expect(stored.hasValidator)
        #expect(!Fixture.stored("Cache-Control: max-age=60").hasValidator)
        #expect(!Fixture.stored("ETag: not valid").hasValidator)
    }

    @Test("§5.1 a valid Age is read", arguments: [("30", 30), ("0", 0), ("99999999999", 2_147_483_648)])
    func validAge(value: String, seconds: Int) {
        #expect(Fixture.stored("Age: \(value)").ageHeader == seconds)
    }

    @Test("§5.1 an invalid Age is ignored", arguments: ["abc", "-1", "1.5", ""])
    func invalidAge(value: String) {
        #expect(Fixture.stored("Age: \(value)").ageHeader == nil)
    }

    @Test("§5.1 a list-valued Age uses its first member")
    func listAge() {
        #expect(Fixture.stored("Age: 30, 60").ageHeader == 30)
        #expect(Fixture.stored("Age: 30", "Age: 60").ageHeader == 30)
    }

    @Test("§3 a stored response survives JSON encoding with its parsed fields")
    func codable() throws {
        let stored = Fixture.stored(
            "Cache-Control: max-age=60", #"ETag: "v1""#, "Vary: Accept", requested: -2, received: -1, requestLines: ["Accept: text/html"])
        let decoded = try JSONDecoder().decode(StoredResponse.self, from: JSONEncoder().encode(stored))
        #expect(decoded == stored)
        #expect(decoded.cacheControl.maxAge == .seconds(60))
        #expect(decoded.varyKey.fields == [VaryKey.Field(name: "accept", value: "text/html")])
    }

    // MARK: §3.2 updating stored fields

    @Test("§3.2 fields of the 304 replace every stored field of that name")
    func freshenReplaces() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Link: </a>", "Link: </b>", "X-Kept: 1", #"ETag: "v1""#)
        let updated = rules.freshen(
            stored, with: Fixture.response(304, "Cache-Control: max-age=120", "Link: </c>", "Date: \(Fixture.httpDate(100))"),
            requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        let fields = updated.response.headerFields
        #expect(fields[values: .cacheControl] == ["max-age=120"])
        #expect(fields[values: HTTPField.Name("Link")!] == ["</c>"])
        #expect(fields[HTTPField.Name("X-Kept")!] == "1")
        #expect(fields[.eTag] == #""v1""#)
        #expect(updated.cacheControl.maxAge == .seconds(120))
        #expect(updated.date == Fixture.at(100))
    }

    @Test("§3.2 what a 304 leaves unchanged is kept as parsed; what it changes is parsed anew", arguments: [
        (#"ETag: "v1""#, "max-age=60", #""v1""#, 60),
        (#"ETag: "v2""#, "max-age=60", #""v2""#, 60),
        (#"ETag: "v1""#, "max-age=5", #""v1""#, 5),
    ])
    func freshenReparsesChanges(etagLine: String, cacheControl: String, ifNoneMatch: String, maxAge: Int) {
        let stored = Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)
        let updated = rules.freshen(
            stored, with: Fixture.response(304, etagLine, "Cache-Control: \(cacheControl)"),
            requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        #expect(updated.ifNoneMatchValue == ifNoneMatch)
        #expect(updated.cacheControl.maxAge == .seconds(maxAge))
        #expect(updated.cacheControl == CacheControl(updated.response.headerFields))
    }

    @Test("§3.2 freshened fields keep the stored order: untouched fields in place, a new Date in the old one's place, the 304's fields last")
    func freshenOrder() {
        let stored = Fixture.stored(
            "X-First: 1", "Date: \(Fixture.httpDate(0))", "Age: 30", #"ETag: "v1""#, "X-Last: 2", "Date: \(Fixture.httpDate(1))")
        let updated = rules.freshen(
            stored, with: Fixture.response(304, #"ETag: "v1""#, "Cache-Control: max-age=5"),
            requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        let lines = updated.response.headerFields.map { "\($0.name.rawName): \($0.value)" }
        #expect(lines == [
            "X-First: 1", "Date: \(Fixture.httpDate(100))", "X-Last: 2", #"ETag: "v1""#, "Cache-Control: max-age=5",
        ])
    }

    @Test("§3.2 Content-Length is not updated from a 304")
    func freshenKeepsContentLength() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Content-Length: 1234")
        let updated = rules.freshen(stored, with: Fixture.response(304, "Content-Length: 0"), requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        #expect(updated.response.headerFields[values: .contentLength] == ["1234"])
    }

    @Test("§3.2 hop-by-hop fields of the 304 are not stored")
    func freshenDropsHopByHop() {
        let stored = Fixture.stored("Cache-Control: max-age=60")
        let updated = rules.freshen(
            stored, with: Fixture.response(304, "Connection: X-Hop", "X-Hop: 1", "Keep-Alive: timeout=5", "X-New: 2"),
            requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        let fields = updated.response.headerFields
        #expect(fields[.connection] == nil)
        #expect(fields[HTTPField.Name("X-Hop")!] == nil)
        #expect(fields[HTTPField.Name("Keep-Alive")!] == nil)
        #expect(fields[HTTPField.Name("X-New")!] == "2")
    }

    @Test("§3.2 a 304 without Date gives the stored response a new Date (the revalidation's receipt)")
    func freshenNewDate() {
        let stored = Fixture.stored("Cache-Control: max-age=60")
        let updated = rules.freshen(stored, with: Fixture.response(304), requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        #expect(updated.response.headerFields[values: .date] == [Fixture.httpDate(100)])
    }

    @Test("§4.3.4 freshening keeps status, key and Vary key, and takes the new times")
    func freshenKeepsIdentity() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Vary: Accept", status: 203, requestLines: ["Accept: a/b"])
        let updated = rules.freshen(stored, with: Fixture.response(304), requestTime: Fixture.at(99), responseTime: Fixture.at(100))
        #expect(updated.status == 203)
        #expect(updated.key == stored.key)
        #expect(updated.varyKey == stored.varyKey)
        #expect(updated.requestTime == Fixture.at(99))
        #expect(updated.responseTime == Fixture.at(100))
    }

    @Test("§4.2.3 a freshened response's age restarts: an old Age does not survive a 304 without Age")
    func freshenResetsAge() {
        let stored = Fixture.stored("Cache-Control: max-age=300", "Age: 200")
        let updated = rules.freshen(stored, with: Fixture.response(304), requestTime: Fixture.at(1000), responseTime: Fixture.at(1000))
        #expect(updated.ageHeader == nil)
        #expect(rules.currentAge(of: updated, now: Fixture.at(1010)) == 10)
    }

    @Test("§4.2.3 an Age sent with the 304 is taken")
    func freshenTakesAge() {
        let stored = Fixture.stored("Cache-Control: max-age=300", "Age: 200")
        let updated = rules.freshen(stored, with: Fixture.response(304, "Age: 5"), requestTime: Fixture.at(1000), responseTime: Fixture.at(1000))
        #expect(updated.ageHeader == 5)
        #expect(rules.currentAge(of: updated, now: Fixture.at(1000)) == 5)
    }

    // MARK: §5.1 serving

    @Test("§5.1 a served response carries its current age in whole seconds")
    func servedAge() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Age: 3")
        let fields = rules.servedHeaderFields(for: stored, age: 42.9, revalidated: false)
        #expect(fields[values: .age] == ["42"])
        #expect(fields[.cacheControl] == "max-age=60")
    }

    @Test("§5.1 the served Age stands where the stored one stood (once), or last when there was none", arguments: [
        (["X-A: 1", "Age: 3", "X-B: 2", "Age: 4"], ["X-A: 1", "Age: 7", "X-B: 2"]),
        (["X-A: 1", "X-B: 2"], ["X-A: 1", "X-B: 2", "Age: 7"]),
    ])
    func servedAgePlace(storedLines: [String], servedLines: [String]) {
        let fields = rules.servedHeaderFields(for: Fixture.stored(lines: storedLines, date: nil), age: 7, revalidated: false)
        #expect(fields.map { "\($0.name.rawName): \($0.value)" } == servedLines)
    }

    @Test("§5.1 a served Age saturates at 2^31")
    func servedAgeSaturates() {
        let fields = rules.servedHeaderFields(for: Fixture.stored("Cache-Control: max-age=60"), age: 1e12, revalidated: false)
        #expect(fields[.age] == "2147483648")
    }

    @Test("§5.2.2.4 fields named by qualified no-cache are removed when served without revalidation")
    func qualifiedNoCacheStripped() {
        let stored = Fixture.stored(#"Cache-Control: no-cache="Set-Cookie", max-age=60"#, "Set-Cookie: id=1", "X-Other: 2")
        let fields = rules.servedHeaderFields(for: stored, age: 0, revalidated: false)
        #expect(fields[.setCookie] == nil)
        #expect(fields[HTTPField.Name("X-Other")!] == "2")
    }

    @Test("§5.2.2.4 fields named by qualified no-cache are kept after revalidation")
    func qualifiedNoCacheKeptWhenRevalidated() {
        let stored = Fixture.stored(#"Cache-Control: no-cache="Set-Cookie", max-age=60"#, "Set-Cookie: id=1")
        #expect(rules.servedHeaderFields(for: stored, age: 0, revalidated: true)[.setCookie] == "id=1")
    }

    @Test("§5.1 serving one stored response again and again: Age follows every whole second, and revalidation keeps its fields")
    func servedRepeatedly() {
        // The served fields of a hit are remembered per age: what is remembered must never
        // stand in for another age, nor for a revalidated response (or the reverse).
        let stored = Fixture.stored(#"Cache-Control: no-cache="Set-Cookie", max-age=60"#, "Set-Cookie: id=1")
        let served = { (age: Double, revalidated: Bool) in
            let fields = self.rules.servedHeaderFields(for: stored, age: age, revalidated: revalidated)
            return "\(fields[.age] ?? "-") \(fields[.setCookie] ?? "-")"
        }
        #expect(served(3.2, false) == "3 -")
        #expect(served(3.9, false) == "3 -")
        #expect(served(3.9, true) == "3 id=1")
        #expect(served(3.9, false) == "3 -")
        #expect(served(4.0, false) == "4 -")
        #expect(served(2.0, false) == "2 -")
        #expect(served(4.5, true) == "4 id=1")
    }
}
