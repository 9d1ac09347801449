@testable import CacheEvents
@testable import SessionLog
import HTTPTypes
import Foundation
import HTTPCaching
import Testing

/// The hand-written line encoder and parser against the `Codable` definition they implement.
@Suite("Event line codec")
struct EventLineCodecTests {
    private func encodeLine(_ event: CacheEvent, redacting: Bool = false) -> [UInt8] {
        var writer = JSONLineWriter()
        EventLineEncoder.encode(event, redacting: redacting, into: &writer)
        return writer.bytes
    }

    private func parse(_ line: [UInt8]) throws -> EventLineDecoder.Result {
        var decoder = EventLineDecoder()
        var line = line
        if line.last == 0x0A { line.removeLast() }
        return line.withUnsafeBufferPointer { decoder.decode($0) }
    }

    @Test("every sample event: the fast parser, JSONDecoder and the original agree")
    func everyKindRoundTrips() throws {
        let decoder = JSONDecoder()
        for event in SampleSession.events {
            let line = encodeLine(event)
            #expect(line.last == 0x0A)
            #expect(!line.dropLast().contains(0x0A), "a line break inside \(event.kind.name)")
            let viaDecoder = try decoder.decode(CacheEvent.self, from: Data(line))
            #expect(viaDecoder == event, "JSONDecoder reads \(event.kind.name) differently")
            guard case .event(let parsed, nil) = try parse(line) else {
                Issue.record("fast parser failed on \(event.kind.name)")
                continue
            }
            #expect(parsed == event)
        }
    }

    @Test("lines JSONEncoder writes are read the same (any field order, escaped slashes)")
    func readsJSONEncoderOutput() throws {
        let encoder = JSONEncoder()
        for event in SampleSession.events {
            let line = Array(try encoder.encode(event))
            guard case .event(let parsed, nil) = try parse(line) else {
                Issue.record("could not read JSONEncoder's \(event.kind.name)")
                continue
            }
            #expect(parsed == event)
        }
    }

    @Test("the exact line for a lookup, as documented")
    func documentedLine() {
        let event = CacheEvent(seq: 7, time: 1.204, requestID: 3, kind: .lookup(Lookup(verdict: .fresh, reason: "max-age=60", age: 4, ttl: 56)))
        #expect(String(decoding: encodeLine(event), as: UTF8.self)
            == #"{"seq":7,"t":1.204,"req":3,"kind":"lookup","verdict":"fresh","reason":"max-age=60","age":4,"ttl":56}"# + "\n")
    }

    @Test("requestFinished of a background refresh: written only when true, read as false when absent (older logs)")
    func backgroundFlag() throws {
        let finished = RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .revalidated, reason: "304 (expired 4s ago)",
            background: true)
        let event = CacheEvent(seq: 9, time: 2, requestID: 5, kind: .requestFinished(finished))
        let line = encodeLine(event)
        #expect(String(decoding: line, as: UTF8.self).hasSuffix(#""coalesced":false,"background":true}"# + "\n"))
        guard case .event(let parsed, nil) = try parse(line) else {
            Issue.record("fast parser failed")
            return
        }
        #expect(parsed == event)
        #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(line)) == event)

        let foreground = CacheEvent(seq: 9, time: 2, requestID: 5, kind: .requestFinished(RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 7, bytesFromCache: 0, outcome: .miss, reason: "not in cache")))
        #expect(!String(decoding: encodeLine(foreground), as: UTF8.self).contains("background"))
        let older = Array(#"{"seq":9,"t":2,"req":5,"kind":"requestFinished","status":200,"latency":0.01,"bytesFromNetwork":7,"bytesFromCache":0,"outcome":"miss","reason":"not in cache","coalesced":false}"#.utf8)
        guard case .event(let parsedOlder, nil) = try parse(older) else {
            Issue.record("fast parser failed on a line without the field")
            return
        }
        #expect(parsedOlder == foreground)
        #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(older)) == foreground)
    }

    @Test("served after an origin failure (stale-if-error): the failure written and read back; older lines read without it")
    func originFailure() throws {
        for (error, status) in [("status 500", Optional(500)), ("connection refused (http://o/a)", nil)] {
            let served = Served(
                source: .cache, status: 200, bytes: 12, outcome: .stale, reason: "stale-if-error=300", age: 8, ttl: -5,
                headers: [.contentType: "text/plain"], originError: error, originStatus: status)
            let event = CacheEvent(seq: 4, time: 3, requestID: 2, kind: .served(served))
            let line = encodeLine(event)
            let text = String(decoding: line, as: UTF8.self)
            #expect(text.contains(#""originError":"\#(error)""#) && text.contains("originStatus") == (status != nil), "\(text)")
            guard case .event(let parsed, nil) = try parse(line) else {
                Issue.record("fast parser failed on \(text)")
                continue
            }
            #expect(parsed == event)
            #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(line)) == event)
        }
        let older = Array(#"{"seq":4,"t":3,"req":2,"kind":"served","source":"cache","status":200,"bytes":12,"outcome":"stale","reason":"stale-if-error=300","headers":[]}"#.utf8)
        guard case .event(let parsedOlder, nil) = try parse(older), case .served(let served) = parsedOlder.kind else {
            Issue.record("fast parser failed on a line without the fields")
            return
        }
        #expect(served.originError == nil && served.originStatus == nil && served.outcome == .stale)
    }

    @Test("traffic figures leave background refreshes out of requests and outcomes but count their network bytes")
    func backgroundRefreshCounters() {
        func finished(_ outcome: CacheOutcome, network: Int, cache: Int, background: Bool = false) -> CacheEvent {
            CacheEvent(seq: 1, time: 1, requestID: 1, kind: .requestFinished(RequestFinished(
                status: 200, latency: 0.01, bytesFromNetwork: network, bytesFromCache: cache, outcome: outcome, reason: "",
                background: background)))
        }
        var counters = TrafficCounters()
        for event in [
            finished(.stale, network: 0, cache: 100), finished(.modified, network: 120, cache: 0, background: true),
            finished(.hit, network: 0, cache: 120),
        ] { counters.apply(event) }
        #expect(counters.requests == 2 && counters.backgroundRefreshes == 1)
        #expect(counters.count(.modified) == 0)
        #expect(counters.hitRatio == 1)
        #expect(counters.bytesFromNetwork == 120 && counters.bytesFromCache == 220)
    }

    @Test("strings are escaped as JSON requires and nothing more")
    func escaping() {
        let message = "quote \" backslash \\ slash / tab \t newline \n bell \u{7} é 😀"
        let line = String(decoding: encodeLine(CacheEvent(seq: 1, time: 0, kind: .error(ErrorInfo(message: message)))), as: UTF8.self)
        #expect(line == #"{"seq":1,"t":0,"kind":"error","message":"quote \" backslash \\ slash / tab \t newline \n bell \u0007 é 😀"}"# + "\n")
    }

    @Test("redaction while encoding replaces only the four sensitive fields, any case")
    func redactionWhileEncoding() throws {
        let headers = HTTPFields([
            testField("AUTHORIZATION", value: "a"), testField("Proxy-Authorization", value: "b"),
            testField("Cookie", value: "c"), testField("set-cookie", value: "d"),
            testField("Accept", value: "e"), testField("Cookies", value: "f"),
        ])
        let event = CacheEvent(seq: 1, time: 0, requestID: 1, kind: .requestStarted(RequestStarted(method: "GET", url: "u", cacheKey: "k", policy: "p", headers: headers)))
        guard case .event(let parsed, _) = try parse(encodeLine(event, redacting: true)),
            case .requestStarted(let started) = parsed.kind
        else {
            Issue.record("not read back")
            return
        }
        #expect(started.headers.map(\.value) == ["[redacted]", "[redacted]", "[redacted]", "[redacted]", "e", "f"])
        #expect(event.redactingSensitiveHeaders() == parsed)
    }

    @Test("non-finite numbers: optional fields left out, required ones written as 0")
    func nonFiniteNumbers() throws {
        let event = CacheEvent(seq: 1, time: .nan, requestID: 2, kind: .requestFinished(RequestFinished(
            status: 200, latency: .infinity, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .hit, reason: "")))
        let line = String(decoding: encodeLine(event), as: UTF8.self)
        #expect(line.hasPrefix(#"{"seq":1,"t":0,"req":2,"kind":"requestFinished","status":200,"latency":0,"#))
        let lookup = CacheEvent(seq: 2, time: 1, kind: .lookup(Lookup(verdict: .stale, reason: "r", age: .nan, ttl: -.infinity)))
        #expect(String(decoding: encodeLine(lookup), as: UTF8.self) == #"{"seq":2,"t":1,"kind":"lookup","verdict":"stale","reason":"r"}"# + "\n")
    }

    @Test("numbers JSONDecoder accepts but the fast path does not are still read")
    func fallbackNumbers() throws {
        let line = Array(#"{"seq":1e1,"t":2E-1,"kind":"modified","status":2.0e2}"#.utf8)
        guard case .event(let event, _) = try parse(line) else {
            Issue.record("not read")
            return
        }
        #expect(event == CacheEvent(seq: 10, time: 0.2, kind: .modified(Modified(status: 200))))
    }

    @Test("escaped keys and null optionals are read")
    func escapedKeysAndNulls() throws {
        let line = Array(#"{"\u0073eq":5,"t":1.5,"req":null,"kind":"lookup","verdict":"miss","reason":"caf\u00e9 \ud83d\ude00","age":null}"#.utf8)
        guard case .event(let event, _) = try parse(line) else {
            Issue.record("not read")
            return
        }
        #expect(event == CacheEvent(seq: 5, time: 1.5, kind: .lookup(Lookup(verdict: .miss, reason: "café 😀"))))
    }

    @Test("doubles parse exactly like the standard library, including 17-digit ones")
    func doubleParsing() {
        var random = SystemRandomNumberGenerator()
        var samples: [Double] = [0, 1, 0.1, 0.2, 0.3, 1.204, 12.345678901234567, 0.012345678901234567, 1e-5, 1.5e-7,
                                 123456789.123456789, 9_007_199_254_740_992, .leastNonzeroMagnitude, 1.7976931348623157e308, 2.2250738585072014e-308]
        for _ in 0..<20_000 {
            samples.append(Double.random(in: 0..<100_000, using: &random))
            samples.append(Double.random(in: 0..<0.001, using: &random))
            samples.append(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
        }
        for value in samples {
            for text in [value.description, String(format: "%.17g", value), String(format: "%.6f", value)] {
                let parsed = Array(text.utf8).withUnsafeBufferPointer { JSONNumberParsing.double($0) }
                #expect(parsed == Double(text), "\(text)")
            }
        }
    }

    @Test("integers: overflow is refused, not wrapped")
    func integerParsing() {
        func int(_ text: String) -> Int? { Array(text.utf8).withUnsafeBufferPointer { JSONNumberParsing.int($0) } }
        func unsigned(_ text: String) -> UInt64? { Array(text.utf8).withUnsafeBufferPointer { JSONNumberParsing.unsigned($0) } }
        #expect(int("9223372036854775807") == Int.max)
        #expect(int("-9223372036854775808") == Int.min)
        #expect(int("9223372036854775808") == nil)
        #expect(unsigned("18446744073709551615") == UInt64.max)
        #expect(unsigned("18446744073709551616") == nil)
        #expect(unsigned("-1") == nil)
    }

    @Test("syntax errors name the problem and its column")
    func syntaxErrors() throws {
        let cases: [(String, String)] = [
            (#"{"seq":1,}"#, "unexpected character '}' at column 10"),
            (#"{"seq":01}"#, "unexpected character '1' at column 9"),
            (#"{"seq":1 "t":2}"#, "unexpected character '\"' at column 10"),
            ("{\"a\":\"tab\there\"}", "unescaped control character U+0009 in a string at column 10"),
            (#"{"a":"\x"}"#, "invalid escape sequence in a string at column 7"),
            (#"{"a":tru}"#, "unexpected character '}' at column 9"),
            (#"{"a":1} extra"#, "unexpected character 'e' at column 9"),
            (String(repeating: "[", count: 600), "arrays or objects nested more than 512 deep at column 513"),
        ]
        for (line, expected) in cases {
            guard case .notJSON(let error) = try parse(Array(line.utf8)) else {
                Issue.record("accepted \(line)")
                continue
            }
            #expect("\(error) at column \(error.offset + 1)" == expected, "\(line)")
        }
    }

    @Test("sensitive header names are matched case-insensitively and exactly")
    func sensitiveNames() {
        for name in ["authorization", "AUTHORIZATION", "Proxy-Authorization", "cookie", "Set-Cookie", "SET-COOKIE"] {
            #expect(SensitiveHeaders.isSensitive(name), "\(name)")
        }
        for name in ["Authorisation", "Cookies", "X-Cookie", "set_cookie", "", "Accept"] {
            #expect(!SensitiveHeaders.isSensitive(name), "\(name)")
        }
    }
}
