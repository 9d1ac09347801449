import Foundation
import Testing

@testable import DemoOrigin

@Suite("HTTP dates, entity tags and listen addresses", .timeLimit(.minutes(2)))
struct HTTPPrimitivesTests {
    @Test("IMF-fixdate formatting of known instants")
    func formatKnownDates() {
        #expect(HTTPDateFormatting.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateFormatting.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDateFormatting.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDateFormatting.format(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test("formatting agrees with Foundation's formatter across a range of instants")
    func formatMatchesFoundation() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var rng = SplitMix64(seed: 9)
        var mismatches: [String] = []
        for _ in 0..<300 {
            let seconds = Int64(rng.next() % 4_102_444_800)  // 1970...2100
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            if HTTPDateFormatting.format(secondsSince1970: seconds) != expected
                || HTTPDateFormatting.parse(expected) != seconds
            {
                mismatches.append(expected)
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test("parsing accepts the three forms RFC 9110 requires and rejects junk")
    func parseForms() {
        #expect(HTTPDateFormatting.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDateFormatting.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDateFormatting.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        for junk in ["", "yesterday", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT",
                     "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT"] {
            #expect(HTTPDateFormatting.parse(junk) == nil, "\(junk)")
        }
        // The origin reads dates with the cache's own parser, which accepts a one-digit day as
        // lenient recipients do.
        #expect(HTTPDateFormatting.parse("Sun, 6 Nov 1994 08:49:37 GMT") == 784_111_777)
    }

    @Test("If-None-Match lists are split on commas outside quotes")
    func entityTagMembers() {
        #expect(EntityTag.members(of: "\"a\", W/\"b,c\" ,\"d\"") == ["\"a\"", "W/\"b,c\"", "\"d\""])
        #expect(EntityTag.ifNoneMatch("W/\"x\"", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch("\"x\"", matches: "W/\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"x\"", matches: "\"y\""))
        #expect(!EntityTag.ifNoneMatch("x", matches: "\"x\""), "an unquoted tag is not the same tag")
        #expect(EntityTag.strong(for: "same") == EntityTag.strong(for: "same"))
        #expect(EntityTag.strong(for: "a") != EntityTag.strong(for: "b"))
    }

    @Test("HOST:PORT parsing", arguments: [
        ("127.0.0.1:8080", ListenAddress(host: "127.0.0.1", port: 8080)),
        ("localhost:0", ListenAddress(host: "localhost", port: 0)),
        ("[::1]:65535", ListenAddress(host: "::1", port: 65_535)),
    ])
    func listenAddress(text: String, expected: ListenAddress) throws {
        #expect(try ListenAddress(parsing: text) == expected)
        #expect(expected.description == text)
    }

    @Test("bad HOST:PORT says what to type instead", arguments: [
        ("8080", ListenAddressError.missingPort("8080")),
        ("127.0.0.1:", .invalidPort("127.0.0.1:")),
        ("127.0.0.1:65536", .invalidPort("127.0.0.1:65536")),
        ("127.0.0.1:80a", .invalidPort("127.0.0.1:80a")),
        (":8080", .invalidHost(":8080")),
        ("::1:8080", .unbracketedIPv6("::1:8080")),
        ("[::1:8080", .unclosedBracket("[::1:8080")),
        // These two were taken for IPv6 addresses without brackets.
        ("http://127.0.0.1:8080", .url("http://127.0.0.1:8080")),
        ("127.0.0.1:8080:1", .invalidHost("127.0.0.1:8080:1")),
    ])
    func badListenAddress(text: String, expected: ListenAddressError) {
        #expect(throws: expected) { try ListenAddress(parsing: text) }
    }

    @Test("listen address errors read as instructions")
    func listenAddressMessages() {
        #expect(ListenAddressError.missingPort("x").description == "'x' has no port: use HOST:PORT, e.g. 127.0.0.1:8080")
        #expect(ListenAddressError.unbracketedIPv6("::1:80").description.contains("[::1]:8080"))
    }

    @Test("two addresses clash when binding both would ask for one socket twice", arguments: [
        ("127.0.0.1:80", "127.0.0.1:80", true), ("LOCALHOST:80", "127.0.0.1:80", true), ("[::1]:80", "localhost:80", true),
        ("0.0.0.0:80", "127.0.0.1:80", true), ("[::]:80", "localhost:80", true),
        ("127.0.0.1:80", "127.0.0.1:81", false), ("127.0.0.1:0", "127.0.0.1:0", false), ("127.0.0.1:80", "[::1]:80", false),
        ("127.0.0.2:80", "127.0.0.1:80", false), ("0.0.0.0:80", "[::1]:80", false), ("0.0.0.0:80", "localhost:80", true),
    ])
    func clashes(first: String, second: String, clash: Bool) throws {
        let (a, b) = (try ListenAddress(parsing: first), try ListenAddress(parsing: second))
        #expect(a.mayClash(with: b) == clash)
        #expect(b.mayClash(with: a) == clash)
    }

    @Test("the endpoint listing has one aligned line per endpoint kind")
    func listing() {
        let lines = EndpointKind.listing().split(separator: "\n")
        #expect(lines.count == EndpointKind.allCases.count)
        #expect(lines.first == "  /max-age/{N}          Cache-Control: max-age=N, strong ETag, Last-Modified")
        let summaryColumns = Set(zip(lines, EndpointKind.allCases).map { line, kind in
            line.range(of: kind.summary).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        })
        #expect(summaryColumns.count == 1)
        #expect(!summaryColumns.contains(nil), "every line holds its kind's summary")
    }
}
