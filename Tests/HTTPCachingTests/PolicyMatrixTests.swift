import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// Every `CachePolicy` against every kind of stored state (docs/policies.md in table form).
@Suite("Cache policies × stored responses")
struct PolicyMatrixTests {
    /// A kind of stored state, and the request asked of it.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case fresh, staleWithETag, staleWithoutValidator, noCache, mustRevalidate, nothingStored, varyMismatch

        var testDescription: String { rawValue }

        var candidates: [StoredResponse] {
            switch self {
            case .fresh: return [Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)]
            case .staleWithETag: return [Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)]
            case .staleWithoutValidator: return [Fixture.stored("Cache-Control: max-age=60")]
            case .noCache: return [Fixture.stored("Cache-Control: no-cache, max-age=600", #"ETag: "v1""#)]
            case .mustRevalidate: return [Fixture.stored("Cache-Control: max-age=60, must-revalidate", #"ETag: "v1""#)]
            case .nothingStored: return []
            case .varyMismatch:
                return [Fixture.stored("Cache-Control: max-age=600", "Vary: Accept-Language", requestLines: ["Accept-Language: de"])]
            }
        }

        var request: HTTPRequest { self == .varyMismatch ? Fixture.get("Accept-Language: en") : Fixture.get() }

        /// When the request is asked (seconds after the response was stored).
        var now: Double { [.staleWithETag, .staleWithoutValidator, .mustRevalidate].contains(self) ? 100 : 10 }
    }

    static let expected: [CachePolicy: [Kind: String]] = [
        .useProtocolCachePolicy: [
            .fresh: "fresh: max-age=60",
            .staleWithETag: "revalidate: expired 40s ago",
            .staleWithoutValidator: "miss: expired 40s ago, no validator",
            .noCache: "revalidate: no-cache",
            .mustRevalidate: "revalidate: stale 40s and must-revalidate",
            .nothingStored: "miss: not in cache",
            .varyMismatch: "miss: Vary mismatch: Accept-Language",
        ],
        .reloadIgnoringLocalCacheData: Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, "bypass: policy reload") }),
        .reloadIgnoringLocalAndRemoteCacheData: Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, "bypass: policy reload-all") }),
        .returnCacheDataElseLoad: [
            .fresh: "fresh: max-age=60",
            .staleWithETag: "stale: policy cache-else-load",
            .staleWithoutValidator: "stale: policy cache-else-load",
            .noCache: "fresh: max-age=600",
            .mustRevalidate: "stale: policy cache-else-load",
            .nothingStored: "miss: not in cache",
            .varyMismatch: "miss: Vary mismatch: Accept-Language",
        ],
        .returnCacheDataDontLoad: [
            .fresh: "fresh: max-age=60",
            .staleWithETag: "stale: policy cache-only",
            .staleWithoutValidator: "stale: policy cache-only",
            .noCache: "fresh: max-age=600",
            .mustRevalidate: "stale: policy cache-only",
            .nothingStored: "unsatisfiable: policy cache-only and nothing stored",
            .varyMismatch: "unsatisfiable: policy cache-only and nothing stored",
        ],
        .reloadRevalidatingCacheData: [
            .fresh: "revalidate: policy revalidate",
            .staleWithETag: "revalidate: policy revalidate",
            .staleWithoutValidator: "miss: policy revalidate, no validator",
            .noCache: "revalidate: policy revalidate",
            .mustRevalidate: "revalidate: policy revalidate",
            .nothingStored: "miss: not in cache",
            .varyMismatch: "miss: Vary mismatch: Accept-Language",
        ],
    ]

    @Test("CachePolicy decides as docs/policies.md tabulates", arguments: CachePolicy.allCases, PolicyMatrixTests.Kind.allCases)
    func matrix(policy: CachePolicy, kind: Kind) {
        let decision = Fixture.decide(kind.candidates, request: kind.request, policy: policy, at: kind.now)
        #expect(decision.summary == Self.expected[policy]?[kind])
    }

    @Test("CachePolicy cache-only never needs the network", arguments: PolicyMatrixTests.Kind.allCases)
    func cacheOnlyIsImmediate(kind: Kind) {
        let decision = Fixture.decide(kind.candidates, request: kind.request, policy: .returnCacheDataDontLoad, at: kind.now)
        #expect(decision.immediateOutcome != nil)
    }

    @Test("CachePolicy reload-all sends no-cache upstream whatever is stored", arguments: PolicyMatrixTests.Kind.allCases)
    func reloadAllRequest(kind: Kind) {
        let policy = CachePolicy.reloadIgnoringLocalAndRemoteCacheData
        let decision = Fixture.decide(kind.candidates, request: kind.request, policy: policy, at: kind.now)
        let outgoing = Fixture.privateCache.networkRequest(for: kind.request, decision: decision, policy: policy)
        #expect(outgoing.headerFields[.cacheControl] == "no-cache")
        #expect(outgoing.headerFields[.pragma] == "no-cache")
        #expect(outgoing.headerFields[.ifNoneMatch] == nil)
    }

    @Test(
        "CachePolicy(name:) accepts every command-line name",
        arguments: [
            ("protocol", CachePolicy.useProtocolCachePolicy), ("reload", .reloadIgnoringLocalCacheData),
            ("reload-all", .reloadIgnoringLocalAndRemoteCacheData), ("cache-else-load", .returnCacheDataElseLoad),
            ("cache-only", .returnCacheDataDontLoad), ("revalidate", .reloadRevalidatingCacheData),
        ])
    func commandLineNames(name: String, policy: CachePolicy) {
        #expect(CachePolicy(name: name) == policy)
        #expect(policy.commandLineName == name)
    }

    @Test("CachePolicy(name:) accepts the full case names", arguments: CachePolicy.allCases)
    func caseNames(policy: CachePolicy) {
        #expect(CachePolicy(name: policy.rawValue) == policy)
    }

    @Test("CachePolicy(name:) rejects other names", arguments: ["", "Protocol", "reload_all", "cache", "useprotocolcachepolicy"])
    func unknownNames(name: String) {
        #expect(CachePolicy(name: name) == nil)
    }
}
