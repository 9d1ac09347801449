import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization
import Testing
import DemoOrigin

/// The `willCache` hook: asked before a storable response is stored, it may veto storing, keep
/// the response in memory only, or store a different response and body.
@Suite("willCache: vetoing, restricting and replacing what is stored", .timeLimit(.minutes(2)))
struct WillCacheTests {
    /// What the hook was asked: the request's path and the response's status.
    final class Calls: Sendable {
        private let calls = Mutex<[(path: String, status: Int)]>([])
        func record(_ request: HTTPRequest, _ response: HTTPResponse) {
            calls.withLock { $0.append((request.path ?? "", response.status.code)) }
        }
        var paths: [String] { calls.withLock { $0.map(\.path) } }
        var statuses: [Int] { calls.withLock { $0.map(\.status) } }
    }

    /// A client whose `willCache` hook records what it is asked and always answers `answer`.
    private static func harness(recording calls: Calls, answer: WillCacheDecision) async throws -> Harness {
        try await Harness.start {
            $0.willCache = { request, response in
                calls.record(request, response)
                return answer
            }
        }
    }

    @Test("a veto: nothing is stored, the reason says so, and the next request goes to the origin")
    func veto() async throws {
        let calls = Calls()
        let harness = try await Self.harness(recording: calls, answer: .store(.notAllowed))
        let first = try await harness.get("/max-age/60")
        #expect(first.outcome == .miss)
        #expect(first.reason == "willCache declined")
        let second = try await harness.get("/max-age/60")
        #expect(second.outcome == .miss)
        #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
        #expect(harness.client.store.stats().entryCount == 0)
        #expect(calls.paths == ["/max-age/60", "/max-age/60"])
        #expect(calls.statuses == [200, 200])
        try await harness.stop()
    }

    @Test("the hook is asked only about storable responses: never for no-store, a POST or a 500")
    func onlyStorableResponses() async throws {
        let calls = Calls()
        let harness = try await Self.harness(recording: calls, answer: .store(.allowed))
        _ = try await harness.get("/no-store")
        _ = try await harness.send(.post, "/items/1")
        _ = try await harness.get("/status/500")
        #expect(calls.paths.isEmpty)
        _ = try await harness.get("/max-age/60")
        #expect(calls.paths == ["/max-age/60"])
        try await harness.stop()
    }

    @Test("memory only: served from memory while the client runs, gone after a relaunch")
    func memoryOnly() async throws {
        let first = try await Harness.start(disk: true) {
            $0.willCache = { request, _ in request.path == "/private/60" ? .store(.allowedInMemoryOnly) : .store(.allowed) }
        }
        _ = try await first.get("/private/60")
        _ = try await first.get("/max-age/60")
        #expect(try await first.get("/private/60").outcome == .hit)
        let entries = await first.client.store.entries()
        #expect(entries.first { $0.id.key.uri.hasSuffix("/private/60") }?.tier == .memory)
        #expect(entries.first { $0.id.key.uri.hasSuffix("/max-age/60") }?.tier == .both)

        let second = try await first.relaunched()
        #expect(try await second.get("/private/60").outcome == .miss)
        #expect(try await second.get("/max-age/60").outcome == .hit)
        #expect(second.origin.requestCount(path: "/private/60") == 2)
        try await second.stop()
    }

    @Test("replace: the stored response is the hook's (a header removed, another body); the first caller still gets the origin's")
    func replace() async throws {
        let rewritten = try #require(HTTPField.Name("X-Rewritten"))
        try await Harness.start {
            $0.willCache = { _, response in
                var trimmed = response
                trimmed.headerFields[.lastModified] = nil
                trimmed.headerFields[rewritten] = "yes"
                return .replace(trimmed, Data("rewritten body".utf8), .allowed)
            }
        }.run { harness in
            let first = try await harness.get("/max-age/60")
            #expect(first.response.headerFields[.lastModified] != nil)
            #expect(String(decoding: first.body, as: UTF8.self).hasPrefix("DemoOrigin /max-age/60"))
            let hit = try await harness.get("/max-age/60")
            #expect(hit.outcome == .hit)
            #expect(hit.body == Data("rewritten body".utf8))
            #expect(hit.response.headerFields[.lastModified] == nil)
            #expect(hit.response.headerFields[rewritten] == "yes")
            // The origin's Content-Length, kept by the hook, is the new body's.
            #expect(first.response.headerFields[.contentLength] != nil)
            #expect(hit.response.headerFields[.contentLength] == "\("rewritten body".utf8.count)")
            #expect(harness.origin.requestCount(path: "/max-age/60") == 1)
        }
    }
}
