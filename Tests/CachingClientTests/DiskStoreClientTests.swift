import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Testing
import DemoOrigin

/// The client over a disk store, as an app that is quit and launched again: what one client
/// stored and freshened, a new client on the same directory serves without asking the origin.
@Suite("The client with a disk store, across relaunches", .timeLimit(.minutes(2)))
struct DiskStoreClientTests {
    @Test("stored, closed, reopened by a new client: a hit with the same body and no origin request")
    func hitAfterRelaunch() async throws {
        let first = try await Harness.start(disk: true)
        let directory = try #require(first.directory)
        let miss = try await first.get("/max-age/60")
        #expect(miss.outcome == .miss)

        let second = try await first.relaunched()
        #expect(second.directory == directory)
        #expect(second.client.store.stats().diskEntryCount == 1)
        let hit = try await second.get("/max-age/60")
        #expect(hit.outcome == .hit)
        #expect(!hit.fromNetwork)
        #expect(hit.body == miss.body)
        #expect(hit.response.headerFields[.eTag] == miss.response.headerFields[.eTag])
        #expect(second.origin.requestCount(path: "/max-age/60") == 1)
        try await second.stop()
    }

    @Test("a 304 freshens the entry on disk: after a relaunch it is fresh, with the 304's Date, and needs no request")
    func notModifiedUpdatesDisk() async throws {
        let first = try await Harness.start(disk: true)
        let miss = try await first.get("/max-age/2")
        let originalDate = try #require(miss.response.headerFields[.date])
        first.clock.advance(by: 5)
        let revalidated = try await first.get("/max-age/2")
        #expect(revalidated.outcome == .revalidated)
        #expect(first.origin.requestCount(path: "/max-age/2") == 2)

        let second = try await first.relaunched()
        let request = try #require(CachingClient.request(url: second.url("/max-age/2")))
        let entry = try #require(await second.client.store.cachedResponse(for: request))
        let freshenedDate = try #require(entry.stored.response.headerFields[.date])
        #expect(freshenedDate != originalDate, "the reopened entry still has the first response's Date")
        #expect(freshenedDate == HTTPDate.format(second.clock.now))
        #expect(entry.body == [UInt8](miss.body))
        // Fresh again for 2 s from the 304: a hit, no third request.
        let hit = try await second.get("/max-age/2")
        #expect(hit.outcome == .hit)
        #expect(hit.body == miss.body)
        #expect(second.origin.requestCount(path: "/max-age/2") == 2)
        try await second.stop()
    }

    @Test("each Vary variant survives a relaunch and is served to its own language only")
    func variantsAfterRelaunch() async throws {
        let first = try await Harness.start(disk: true)
        let english = try await first.get("/vary/lang", headers: [.acceptLanguage: "en"])
        let german = try await first.get("/vary/lang", headers: [.acceptLanguage: "de"])
        let second = try await first.relaunched()
        #expect(second.client.store.stats().diskEntryCount == 2)
        let englishAgain = try await second.get("/vary/lang", headers: [.acceptLanguage: "en"])
        let germanAgain = try await second.get("/vary/lang", headers: [.acceptLanguage: "de"])
        #expect(englishAgain.outcome == .hit && englishAgain.body == english.body)
        #expect(germanAgain.outcome == .hit && germanAgain.body == german.body)
        let french = try await second.get("/vary/lang", headers: [.acceptLanguage: "fr"])
        #expect(french.outcome == .miss)
        #expect(second.origin.requestCount(path: "/vary/lang") == 3)
        try await second.stop()
    }

    @Test("a purge reaches the disk: after a relaunch the entry is gone and the origin is asked again")
    func purgeAfterRelaunch() async throws {
        let first = try await Harness.start(disk: true)
        _ = try await first.get("/max-age/60")
        _ = try await first.get("/immutable")
        first.client.store.removeCachedResponse(for: try #require(CacheKey(method: "GET", uri: first.url("/max-age/60"))))
        let second = try await first.relaunched()
        #expect(try await second.get("/max-age/60").outcome == .miss)
        #expect(try await second.get("/immutable").outcome == .hit)
        #expect(second.origin.requestCount(path: "/max-age/60") == 2)
        #expect(second.origin.requestCount(path: "/immutable") == 1)
        try await second.stop()
    }
}
