@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// `Range` answered from a complete stored 200: the bytes asked for, with `Content-Range`.
@Suite("Proxy: Range from a complete stored 200", .timeLimit(.minutes(2)))
struct RangeTests {
    @Test("a Range on a stored 200 gets a 206 with exactly those bytes; the origin is not asked again")
    func partialFromStore() async throws {
        try await ProxyHarness.start().run { harness in
            let whole = try await harness.request("/large/4")  // 4096 bytes, max-age=60
            try #require(whole.body.count == 4096)
            let part = try await harness.request("/large/4", headers: ["Range: bytes=100-199"])
            #expect(part.status == 206)
            #expect(part.value("Content-Range") == "bytes 100-199/4096")
            #expect(part.body == Array(whole.body[100...199]))
            #expect(ProxyHarness.cacheStatus(part).hasPrefix("cachescope;hit"))
            let suffix = try await harness.request("/large/4", headers: ["Range: bytes=-10"])
            #expect(suffix.status == 206)
            #expect(suffix.body == Array(whole.body[4086...]))
            #expect(harness.origin.requestCount(path: "/large/4") == 1)
        }
    }

    @Test("a range past the end gets 416 with the length; several ranges or a stale If-Range get the whole 200")
    func unsatisfiableAndWhole() async throws {
        try await ProxyHarness.start().run { harness in
            _ = try await harness.request("/large/4")
            let past = try await harness.request("/large/4", headers: ["Range: bytes=5000-"])
            #expect(past.status == 416)
            #expect(past.value("Content-Range") == "bytes */4096")
            // The proxy's own answer: a line saying why, and never stored.
            #expect(past.value("Cache-Control") == "no-store")
            #expect(past.text == "the Range starts past the end of the 4096 bytes the response has\n", "\(past.text)")
            let none = try await harness.request("/large/4", headers: ["Range: bytes=-0"])
            #expect(none.status == 416)
            #expect(none.text == "the Range asks for the last 0 bytes (bytes=-0), which is no byte at all\n", "\(none.text)")
            let several = try await harness.request("/large/4", headers: ["Range: bytes=0-1, 5-6"])
            #expect(several.status == 200 && several.body.count == 4096)
            let stale = try await harness.request("/large/4", headers: ["Range: bytes=0-1", "If-Range: \"not-the-etag\""])
            #expect(stale.status == 200 && stale.body.count == 4096)
        }
    }

    @Test("range parsing", arguments: [
        ("bytes=0-0", 10, RangeRequest.Answer.partial(0...0)), ("bytes=5-", 10, .partial(5...9)), ("bytes=-3", 10, .partial(7...9)),
        ("bytes=8-100", 10, .partial(8...9)), ("bytes=10-", 10, .unsatisfiable(.startsPastEnd)), ("bytes=-0", 10, .unsatisfiable(.emptySuffix)),
        ("bytes=-5", 0, .unsatisfiable(.emptyBody)), ("bytes=0-", 0, .unsatisfiable(.emptyBody)),
        ("bytes=5-2", 10, .whole), ("items=0-1", 10, .whole), ("bytes=x-1", 10, .whole), ("bytes=0-1,3-4", 10, .whole),
    ])
    func parsing(value: String, length: Int, expected: RangeRequest.Answer) {
        #expect(RangeRequest.parse(value, length: length) == expected)
    }
}
