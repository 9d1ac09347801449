@testable import CacheScopeApp
import CachingClient
import DemoOrigin
import Foundation
import HTTPTypes
import Testing
import HTTPCaching

/// `cachescope get`'s logic: a stale-while-revalidate answer is refreshed before the process
/// exits, even when the refresh is slower than the answer.
@Suite("get: one request, then its background refresh, then exit", .timeLimit(.minutes(2)))
struct SingleRequestTests {
    @Test("a slow background revalidation still reaches the origin and is stored before perform returns")
    func slowRefreshFinishes() async throws {
        let origin = try await DemoOrigin.start()
        let scratch = try Scratch()
        let store = try DirectoryPath(scratch.path("cache"), option: "--cache-dir")
        let request = try #require(CachingClient.request(url: origin.baseURL + "/swr/1/60"))

        let first = try await SingleRequest.perform(request, policy: nil, store: store)
        #expect(first.outcome == .miss)
        try await Task.sleep(for: .milliseconds(1500))   // past max-age=1, inside swr=60

        // Each revalidation waits 300 ms before it is sent: far longer than answering the
        // stale response and shutting down take.
        let stale = try await SingleRequest.perform(
            request, policy: nil, store: store, transport: DelayedRevalidations(delay: .milliseconds(300)))
        #expect(stale.outcome == .stale && stale.reason == "stale-while-revalidate")
        #expect(origin.requestCount(path: "/swr/1/60") == 2, "the refresh reached the origin before perform returned")

        // The refresh's 304 is dated at least 1.8 s after the first response, in whole seconds:
        // a stored refresh carries a later `Date` than the first response did.
        let cached = try await SingleRequest.perform(request, policy: .returnCacheDataDontLoad, store: store)
        let firstDate = try #require(first.response.headerFields[.date])
        #expect(
            cached.response.headerFields[.date] != firstDate,
            "the refreshed response was stored: dated \(cached.response.headerFields[.date] ?? "-"), the first \(firstDate)")
        try await origin.stop()
    }

    @Test("the default store is $XDG_CACHE_HOME/cachescope when that is absolute, else ~/.cache/cachescope, ~ being $HOME when that is absolute")
    func defaultStore() {
        #expect(SingleRequest.defaultStoreDirectory(environment: ["HOME": "/tmp/someone"]) == "/tmp/someone/.cache/cachescope")
        #expect(SingleRequest.defaultStoreDirectory(environment: ["HOME": "/tmp/someone", "XDG_CACHE_HOME": "/var/cache/me"]) == "/var/cache/me/cachescope")
        #expect(SingleRequest.defaultStoreDirectory(environment: ["HOME": "relative"]) == FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/cachescope")
        #expect(SingleRequest.defaultStoreDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me"]) == "/var/cache/me/cachescope")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(SingleRequest.defaultStoreDirectory(environment: ["XDG_CACHE_HOME": "relative"]).hasPrefix(home))
        #expect(SingleRequest.defaultStoreDirectory(environment: [:]).hasSuffix("/.cache/cachescope"))
    }
}

/// The default transport, with every conditional request (a revalidation) held for `delay`
/// first — or until the task sending it is cancelled.
struct DelayedRevalidations: Transport {
    let delay: Duration
    let real = AsyncHTTPClientTransport()

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        if request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil {
            try await Task.sleep(for: delay)
        }
        return try await real.send(request, body: body, timeout: timeout)
    }

    func shutdown() async throws {
        try await real.shutdown()
    }
}
