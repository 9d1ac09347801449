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
        let refreshBegan = ContinuousClock.now
        let stale = try await SingleRequest.perform(
            request, policy: nil, store: store, transport: DelayedRevalidations(delay: .milliseconds(300)))
        #expect(stale.outcome == .stale && stale.reason == "stale-while-revalidate")
        #expect(origin.requestCount(path: "/swr/1/60") == 2, "the refresh reached the origin before perform returned")

        let cached = try await SingleRequest.perform(request, policy: .returnCacheDataDontLoad, store: store)
        // The refreshed entry's Date is whole seconds from after `refreshBegan`: its age is under
        // the time since then plus one second. The first entry's would be at least 1.5 s more.
        let elapsed = (ContinuousClock.now - refreshBegan).components
        let sinceRefresh = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        #expect(
            cached.age.map { $0 < sinceRefresh + 1.25 } == true,
            "the refreshed response was stored: age \(cached.age ?? -1), \(sinceRefresh) s after the refresh began")
        try await origin.stop()
    }

    @Test("the default store is $XDG_CACHE_HOME/cachescope when that is absolute, else ~/.cache/cachescope")
    func defaultStore() {
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
