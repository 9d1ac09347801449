import Foundation
import HTTPTypes
import PropertyBased
import Testing
@testable import HTTPCaching

/// Properties of the parsers over arbitrary input: they are total (never trap, always answer)
/// and their printed forms read back to the same values.
@Suite("Parser properties")
struct ParserPropertyTests {
    // MARK: Generators

    /// Characters that steer the parsers into their branches, mixed with non-ASCII, control
    /// characters and a combining mark.
    static let noiseCharacters: [Character] =
        Array(" \t,;=\"\\/-*:()<>@?[]{}.WwGMTSunNovabcxyzXYZ0123456789") + ["é", "\u{301}", "😀", "\u{0}", "\u{7F}", "ÿ", "\u{200B}", "\r", "\n"]

    /// Character soup.
    static let noise = Gen<Character?>.element(of: noiseCharacters).map { $0! }.string(of: 0...40)

    /// Fragments of real header values, so that generated strings are often nearly valid.
    static let fragments: [String] = [
        "max-age", "s-maxage", "no-cache", "private", "max-stale", "min-fresh", "must-revalidate", "immutable",
        "stale-while-revalidate", "stale-if-error", "only-if-cached", "public", "no-store", "must-understand", "x-ext",
        "=", "=", "\"", "\"", "\\", ",", ", ", " ", "\t", "60", "0", "-1", "abc", "2147483648", "99999999999999999999",
        "Set-Cookie", "é", "\u{301}", ";", "W/", "*", "Accept-Language",
    ]

    /// Strings assembled from ``fragments``.
    static let structured = Gen<String?>.element(of: fragments).map { $0! }.array(of: 0...14).map { $0.joined() }

    /// Runs `body` for nearly-valid, noisy and Latin-1 strings.
    static func forEveryHeaderString(
        count: Int = 200, sourceLocation: SourceLocation = #_sourceLocation, _ body: (String) -> Void
    ) async {
        await propertyCheck(count: count, input: structured, perform: body, sourceLocation: sourceLocation)
        await propertyCheck(count: count, input: noise, perform: body, sourceLocation: sourceLocation)
        await propertyCheck(count: count, input: Gen.latin1.string(of: 0...40), perform: body, sourceLocation: sourceLocation)
    }

    // MARK: Cache-Control

    @Test("§5.2 CacheControl(_:) is total: any text gives lower-cased token names, unknown ones as extensions")
    func cacheControlTotal() async {
        await Self.forEveryHeaderString { text in
            let cc = CacheControl(text)
            #expect(cc.directives.allSatisfy { !$0.name.isEmpty && $0.name.utf8.allSatisfy(FieldListScanner.isTokenChar) && $0.name == $0.name.lowercased() })
            #expect(cc.extensions == cc.directives.filter { !CacheControl.knownNames.contains($0.name) })
        }
    }

    @Test("§5.2 a CacheControl's description parses back to the same directives")
    func cacheControlRoundTrip() async {
        await Self.forEveryHeaderString(count: 300) { text in
            let cc = CacheControl(text)
            #expect(CacheControl(cc.description).directives == cc.directives, "\(cc.description)")
        }
    }

    // MARK: Delta-seconds

    @Test("§1.2.2 DeltaSeconds is total: digits give seconds within 0…2^31, anything else is invalid as written")
    func deltaSecondsTotal() async {
        await Self.forEveryHeaderString { text in
            let allDigits = !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
            switch DeltaSeconds.parse(text) {
            case .seconds(let value): #expect(allDigits && (0...DeltaSeconds.maximum).contains(value))
            case .invalid(let raw): #expect(!allDigits && raw == text)
            case let other: Issue.record("parse gave \(other) for \(text)")
            }
        }
    }

    @Test("§1.2.2 a delta-seconds number reads as its value, saturated at 2^31, leading zeros allowed")
    func deltaSecondsValue() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max), Gen.int(in: 0...5)) { number, zeros in
            let text = String(repeating: "0", count: zeros) + String(number)
            #expect(DeltaSeconds.parse(text) == .seconds(min(number, DeltaSeconds.maximum)))
        }
    }

    // MARK: HTTP-date

    @Test("§5.6.7 HTTPDate.parse is total: any text gives nil or a whole-second date that formats and re-parses")
    func httpDateTotal() async {
        await Self.forEveryHeaderString { text in
            let date = HTTPDate.parse(text, reference: Fixture.t0)
            let wellFormed = date.map { $0.timeIntervalSince1970.rounded(.down) == $0.timeIntervalSince1970 && HTTPDate.parse(HTTPDate.format($0), reference: Fixture.t0) == $0 }
            #expect(wellFormed ?? true, "\(text) → \(String(describing: date))")
        }
    }

    @Test("§5.6.7 formatting then parsing a date gives the same second (years 1 to 9999)")
    func httpDateRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.int64(in: -62_135_596_800...253_402_300_799), Gen.int(in: 0...999)) { seconds, millis in
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
            #expect(HTTPDate.parse(HTTPDate.format(date), reference: Fixture.t0) == Date(timeIntervalSince1970: Double(seconds)))
        }
    }

    @Test("§5.6.7 IMF-fixdate and asctime texts parse exactly when they name a real calendar instant")
    func httpDateMatchesCalendar() async {
        let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "GMT")!
            return calendar
        }()
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        await propertyCheck(
            count: 500, input: Gen.int(in: 1600...9999), Gen.int(in: 1...12), Gen.int(in: 0...32), Gen.int(in: 0...24),
            Gen.int(in: 0...60), Gen.int(in: 0...59), Gen.bool
        ) { year, month, day, hour, minute, second, asctime in
            let name = HTTPDate.monthNames[month - 1]
            let time = "\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
            let text = asctime
                ? "Mon \(name) \(day < 10 ? " \(day)" : "\(day)") \(time) \(year)"
                : "Mon, \(twoDigits(day)) \(name) \(year) \(time) GMT"
            let candidate = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
            let real = candidate.map { date in
                let read = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                return read.year == year && read.month == month && read.day == day && read.hour == hour && read.minute == minute
                    && read.second == second
            } ?? false
            #expect(HTTPDate.parse(text, reference: Fixture.t0) == (real ? candidate : nil), "\(text)")
        }
    }

    @Test("§5.6.7 an RFC 850 date's two-digit year is read within 50 years of the reference")
    func rfc850Window() async {
        let fullNames = ["Sun": "Sunday", "Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday", "Sat": "Saturday"]
        await propertyCheck(count: 500, input: Gen.int(in: 1700...9900), Gen.int(in: -49...50), Gen.int(in: 0...364), Gen.int(in: 0...86_399)) {
            year, distance, dayOfYear, secondOfDay in
            let days = HTTPDate.days(year: year, month: 1, day: 1) + Int64(dayOfYear)
            let date = Date(timeIntervalSince1970: Double(days * 86_400) + Double(secondOfDay))
            let reference = Date(timeIntervalSince1970: Double(HTTPDate.days(year: year - distance, month: 7, day: 1) * 86_400))
            // "Sun, 06 Nov 1994 08:49:37 GMT" → "Sunday, 06-Nov-94 08:49:37 GMT"
            let parts = HTTPDate.format(date).split(separator: " ").map(String.init)
            let text = "\(fullNames[String(parts[0].dropLast())]!), \(parts[1])-\(parts[2])-\(parts[3].suffix(2)) \(parts[4]) GMT"
            #expect(HTTPDate.parse(text, reference: reference) == date, "\(text) against \(year - distance)")
        }
    }

    // MARK: Entity tags

    @Test("§8.8.3 EntityTag(parsing:) is total and its description parses back to the same tag")
    func entityTagRoundTrip() async {
        await Self.forEveryHeaderString(count: 300) { text in
            let tag = EntityTag(parsing: text)
            let readsBack = tag.map { !$0.opaqueTag.unicodeScalars.contains("\"") && EntityTag(parsing: $0.description) == $0 }
            #expect(readsBack ?? true, "\(text) → \(tag?.description ?? "nil")")
        }
    }

    @Test("§13.1.2 EntityTagList(parsing:) is total: * anywhere means any, otherwise at most one tag per member")
    func entityTagListTotal() async {
        await Self.forEveryHeaderString { text in
            let members = FieldListScanner.members(text)
            switch EntityTagList(parsing: text) {
            case .any: #expect(members.contains("*"))
            case .tags(let tags): #expect(!members.contains("*") && tags.count <= members.count)
            }
        }
    }

    // MARK: Keys

    @Test("§4.1 VaryKey is total: a request always matches the key made from it, unless Vary is *")
    func varyKeyTotal() async {
        await propertyCheck(count: 300, input: Self.structured, Self.noise, Self.noise) { vary, language, other in
            var request = HTTPFields()
            request[.acceptLanguage] = language
            request[HTTPField.Name("X-A")!] = other
            let key = VaryKey(responseHeaders: Fixture.fields(["Vary: \(vary)"]), requestHeaders: request)
            #expect(key.mismatchedFields(for: request) == (key.isWildcard ? ["*"] : []), "Vary: \(vary)")
            #expect(key.isWildcard == VaryKey.varyNames(Fixture.fields(["Vary: \(vary)"])).contains("*"))
        }
    }

    @Test("§2 CacheKey(method:uri:) is total: any text gives nil or a normalised http(s) URI")
    func cacheKeyTotal() async {
        await Self.forEveryHeaderString { text in
            for candidate in [text, "http://" + text, "HTTPS://" + text] {
                let key = CacheKey(method: "HEAD", uri: candidate)
                let normalised = key.map { $0.method == "GET" && ($0.uri.hasPrefix("http://") || $0.uri.hasPrefix("https://")) && !$0.uri.contains("#") }
                #expect(normalised ?? true, "\(candidate) → \(key?.description ?? "nil")")
            }
        }
    }

    @Test("§2 CacheKey normalisation is idempotent and ignores scheme and host case, default port and fragment")
    func cacheKeyNormalisation() async {
        let schemes = Gen<String?>.element(of: ["http", "https", "HTTP", "HtTpS"]).map { $0! }
        let hosts = Gen.letterOrNumber.string(of: 1...12)
        let segments = Gen<String?>.element(of: ["a", "B", "%2f", "%7E", "é", "x.y", "~", ""]).map { $0! }.array(of: 0...4)
        let queries = Gen<String?>.element(of: ["", "?q=1", "?Q=%aa&b", "?"]).map { $0! }
        await propertyCheck(count: 500, input: schemes, hosts, segments, queries, Gen.bool, Gen.bool) {
            scheme, host, segments, query, defaultPort, fragment in
            let path = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
            let port = defaultPort ? (scheme.lowercased() == "http" ? ":80" : ":443") : ""
            let written = "\(scheme)://\(host)\(port)\(path)\(query)\(fragment ? "#frag" : "")"
            guard let key = CacheKey(method: "GET", uri: written) else {
                Issue.record("no key for \(written)")
                return
            }
            #expect(CacheKey(method: "GET", uri: key.uri) == key)
            #expect(key.uri.hasPrefix("\(scheme.lowercased())://\(host.lowercased())/"))
            #expect(CacheKey(method: "GET", uri: "\(scheme.uppercased())://\(host.uppercased())\(path)\(query)") == key)
        }
    }

    // MARK: Decisions

    @Test("§4 decide is total and never serves what the rules forbid")
    func decideTotal() async {
        await propertyCheck(count: 400, input: Self.structured, Self.structured, Gen.int(in: 0...200), Gen.bool, Gen<CachePolicy>.case) {
            responseCC, requestCC, now, withETag, policy in
            let stored = withETag
                ? Fixture.stored("Cache-Control: \(responseCC)", #"ETag: "v1""#) : Fixture.stored("Cache-Control: \(responseCC)")
            let request = Fixture.get("Cache-Control: \(requestCC)")
            let decision = Fixture.decide([stored], request: request, policy: policy, at: Double(now))
            switch decision {
            case .fresh(let hit):
                #expect(hit.freshness.isFresh && hit.candidate == 0)
            case .stale(let hit), .staleWhileRevalidate(let hit):
                #expect(!hit.freshness.isFresh)
                if policy == .useProtocolCachePolicy {
                    #expect(!stored.cacheControl.mustRevalidate && stored.cacheControl.noCache != .unqualified)
                }
            case .revalidate(let revalidation):
                #expect(withETag && revalidation.conditionalHeaders.ifNoneMatch == [EntityTag(opaqueTag: "v1")])
            case .miss(let miss):
                #expect(miss.candidate == 0 && !withETag)
            case .bypass(let reason):
                #expect(reason == .policy(policy))
            case .unsatisfiable(let reason):
                #expect(reason == .onlyIfCached && CacheControl(requestCC).onlyIfCached)
            }
        }
    }
}
