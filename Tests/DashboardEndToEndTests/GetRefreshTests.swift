import DemoOrigin
import Foundation
import Testing

extension EndToEndTests {
    /// `cachescope get` of a stale-while-revalidate response: the process answers with the
    /// stale response and still refreshes it before it exits.
    @Suite("get finishes its background refresh before exiting", .serialized, .timeLimit(.minutes(2)))
    struct GetRefreshTests {
        @Test("two gets past max-age within the stale-while-revalidate window: the origin sees the revalidation")
        func staleWhileRevalidate() async throws {
            try await withOriginAndStore { setup in
                let first = try await setup.get("/swr/1/60", "--json")
                #expect(first.status == 0, "\(first.stderr)")
                #expect(try first.json(GetCommandTests.Report.self).outcome == "miss")
                try await Task.sleep(for: .milliseconds(3200))   // past max-age=1, well inside swr=60

                let refreshBegan = ContinuousClock.now
                let second = try await setup.get("/swr/1/60", "--json")
                #expect(second.status == 0, "\(second.stderr)")
                let stale = try second.json(GetCommandTests.Report.self)
                #expect(stale.outcome == "stale" && stale.reason == "stale-while-revalidate" && !stale.fromNetwork)
                #expect(setup.origin.requestCount(path: "/swr/1/60") == 2, "the background revalidation reached the origin before exit")
                let sent = setup.origin.lastRequestHeaders(path: "/swr/1/60") ?? []
                #expect(sent.contains { $0.name.lowercased() == "if-none-match" })

                // The refreshed response was stored before exit: from the cache alone, its age counts
                // from the revalidation, not from the first fetch.
                // Its `Date` (whole seconds) is from after `refreshBegan`: when the third process
                // serves it, its age is under the time since then plus one second. The first
                // fetch's is at least 3.2 s more; the bound leaves 1.2 s for that process to start.
                let elapsed = (ContinuousClock.now - refreshBegan).components
                let sinceRefresh = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                let third = try await setup.get("/swr/1/60", "--policy", "cache-only", "--json")
                let refreshed = try third.json(GetCommandTests.Report.self)
                #expect(
                    !refreshed.fromNetwork && refreshed.age.map { $0 < sinceRefresh + 2.2 } == true,
                    "age \(refreshed.age ?? -1), \(sinceRefresh) s after the refresh began")
                #expect(setup.origin.requestCount(path: "/swr/1/60") == 2)
            }
        }
    }
}
