import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// Each policy against each kind of endpoint: what the second request does after a first
/// request stored (or did not store) the response, with the stored copy 5 s old.
@Suite("Every CachePolicy against every endpoint kind")
struct PolicyMatrixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let policy: CachePolicy
        let path: String
        let expected: CacheOutcome
        let networkRequests: Int
        var testDescription: String { "\(policy.commandLineName) \(path) → \(expected)" }
    }

    static let cases: [Case] = [
        // useProtocolCachePolicy
        Case(policy: .useProtocolCachePolicy, path: "/max-age/60", expected: .hit, networkRequests: 1),
        Case(policy: .useProtocolCachePolicy, path: "/max-age/1", expected: .revalidated, networkRequests: 2),
        Case(policy: .useProtocolCachePolicy, path: "/no-cache", expected: .revalidated, networkRequests: 2),
        Case(policy: .useProtocolCachePolicy, path: "/no-store", expected: .miss, networkRequests: 2),
        Case(policy: .useProtocolCachePolicy, path: "/last-modified", expected: .hit, networkRequests: 1),
        Case(policy: .useProtocolCachePolicy, path: "/immutable", expected: .hit, networkRequests: 1),
        Case(policy: .useProtocolCachePolicy, path: "/private/60", expected: .hit, networkRequests: 1),
        Case(policy: .useProtocolCachePolicy, path: "/expires/60", expected: .hit, networkRequests: 1),
        Case(policy: .useProtocolCachePolicy, path: "/status/404", expected: .miss, networkRequests: 2),
        // reloadIgnoringLocalCacheData
        Case(policy: .reloadIgnoringLocalCacheData, path: "/max-age/60", expected: .bypass, networkRequests: 2),
        Case(policy: .reloadIgnoringLocalCacheData, path: "/no-cache", expected: .bypass, networkRequests: 2),
        Case(policy: .reloadIgnoringLocalCacheData, path: "/no-store", expected: .bypass, networkRequests: 2),
        // reloadIgnoringLocalAndRemoteCacheData
        Case(policy: .reloadIgnoringLocalAndRemoteCacheData, path: "/max-age/60", expected: .bypass, networkRequests: 2),
        Case(policy: .reloadIgnoringLocalAndRemoteCacheData, path: "/immutable", expected: .bypass, networkRequests: 2),
        // returnCacheDataElseLoad
        Case(policy: .returnCacheDataElseLoad, path: "/max-age/60", expected: .hit, networkRequests: 1),
        Case(policy: .returnCacheDataElseLoad, path: "/max-age/1", expected: .stale, networkRequests: 1),
        Case(policy: .returnCacheDataElseLoad, path: "/no-cache", expected: .stale, networkRequests: 1),
        Case(policy: .returnCacheDataElseLoad, path: "/no-store", expected: .miss, networkRequests: 2),
        // returnCacheDataDontLoad
        Case(policy: .returnCacheDataDontLoad, path: "/max-age/60", expected: .hit, networkRequests: 1),
        Case(policy: .returnCacheDataDontLoad, path: "/max-age/1", expected: .stale, networkRequests: 1),
        Case(policy: .returnCacheDataDontLoad, path: "/no-cache", expected: .stale, networkRequests: 1),
        // reloadRevalidatingCacheData
        Case(policy: .reloadRevalidatingCacheData, path: "/max-age/60", expected: .revalidated, networkRequests: 2),
        Case(policy: .reloadRevalidatingCacheData, path: "/no-cache", expected: .revalidated, networkRequests: 2),
        Case(policy: .reloadRevalidatingCacheData, path: "/immutable", expected: .hit, networkRequests: 1),
        Case(policy: .reloadRevalidatingCacheData, path: "/no-store", expected: .miss, networkRequests: 2),
    ]

    @Test("second request under the policy", arguments: cases)
    func secondRequest(_ testCase: Case) async throws {
        let harness = try await Harness.start()
        _ = try await harness.get(testCase.path)
        harness.clock.advance(by: 5)
        let second = try await harness.get(testCase.path, policy: testCase.policy)
        #expect(second.outcome == testCase.expected, "reason: \(second.reason)")
        #expect(harness.origin.requestCount(path: testCase.path) == testCase.networkRequests)
        try await harness.stop()
    }

    @Test("reload-all sends Cache-Control: no-cache and Pragma: no-cache to the origin")
    func reloadAllSendsNoCache() async throws {
        let harness = try await Harness.start()
        _ = try await harness.get("/max-age/60", policy: .reloadIgnoringLocalAndRemoteCacheData)
        let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/60"))
        #expect(sent.contains { $0.name.lowercased() == "cache-control" && $0.value == "no-cache" })
        #expect(sent.contains { $0.name.lowercased() == "pragma" && $0.value == "no-cache" })
        try await harness.stop()
    }

    @Test("a per-request policy overrides the client's default")
    func perRequestOverridesDefault() async throws {
        let harness = try await Harness.start(policy: .reloadIgnoringLocalCacheData)
        _ = try await harness.get("/max-age/60")
        #expect(try await harness.get("/max-age/60").outcome == .bypass)
        #expect(try await harness.get("/max-age/60", policy: .useProtocolCachePolicy).outcome == .hit)
        try await harness.stop()
    }
}
