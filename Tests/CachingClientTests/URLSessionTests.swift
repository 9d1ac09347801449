import CachingClient
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import DemoOrigin
#endif

@Suite("URLSession through CachingURLProtocol", .serialized, .timeLimit(.minutes(2)))
struct URLSessionTests {
    private func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [CachingURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    /// Runs `body` with a new harness and a URLSession whose requests go through its client, then
    /// cancels the session and unregisters the protocol, also when `body` throws.
    private func withCachingSession(_ body: (Harness, URLSession) async throws -> Void) async throws {
        try await Harness.start().run { harness in
            CachingURLProtocol.register(harness.client)
            let session = session()
            defer {
                session.invalidateAndCancel()
                CachingURLProtocol.unregister()
            }
            try await body(harness, session)
        }
    }

    /// The cache outcome the protocol reports in its response header.
    private func outcome(_ response: HTTPURLResponse) -> String? {
        response.allHeaderFields[CachingURLProtocol.outcomeHeader] as? String
    }

    private func fetch(_ session: URLSession, _ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error); return }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                    return
                }
                continuation.resume(returning: (data ?? Data(), http))
            }.resume()
        }
    }

    @Test("a real URLSession gets fresh hits and 304 revalidations")
    func urlSessionCaches() async throws {
        try await withCachingSession { harness, session in
            let url = try #require(URL(string: harness.url("/max-age/2")))
            let (firstBody, first) = try await fetch(session, URLRequest(url: url))
            let (secondBody, second) = try await fetch(session, URLRequest(url: url))
            #expect(first.statusCode == 200)
            #expect(secondBody == firstBody)
            #expect(outcome(first)?.hasPrefix("miss") == true)
            #expect(outcome(second)?.hasPrefix("hit") == true)
            #expect(harness.origin.requestCount(path: "/max-age/2") == 1)
            harness.clock.advance(by: 10)
            let (thirdBody, third) = try await fetch(session, URLRequest(url: url))
            #expect(thirdBody == firstBody)
            #expect(outcome(third)?.hasPrefix("revalidated") == true)
            #expect(harness.origin.requestCount(path: "/max-age/2") == 2)
        }
    }

    @Test("URLRequest.cachePolicy is honoured: reloadIgnoringLocalCacheData goes to the origin")
    func cachePolicyHonoured() async throws {
        try await withCachingSession { harness, session in
            let url = try #require(URL(string: harness.url("/max-age/60")))
            _ = try await fetch(session, URLRequest(url: url))
            var reload = URLRequest(url: url)
            reload.cachePolicy = .reloadIgnoringLocalCacheData
            let (_, response) = try await fetch(session, reload)
            #expect(outcome(response)?.hasPrefix("bypass") == true)
            #expect(harness.origin.requestCount(path: "/max-age/60") == 2)
            var cacheOnly = URLRequest(url: try #require(URL(string: harness.url("/max-age/61"))))
            cacheOnly.cachePolicy = .returnCacheDataDontLoad
            // The client's notCached, as URLSession reports it.
            await #expect {
                try await fetch(session, cacheOnly)
            } throws: { error in
                (error as? URLError)?.code == .resourceUnavailable
            }
            #expect(harness.origin.requestCount(path: "/max-age/61") == 0)
        }
    }

    /// The response named the request's URL, not the one a redirect led to.
    @Test("after a redirect the response names the URL that answered")
    func redirectedURL() async throws {
        try await withCachingSession { harness, session in
            let (_, response) = try await fetch(session, URLRequest(url: try #require(URL(string: harness.url("/redirect/302/60")))))
            #expect(response.statusCode == 200)
            #expect(response.url?.absoluteString == harness.url("/max-age/60"))
            let (_, direct) = try await fetch(session, URLRequest(url: try #require(URL(string: harness.url("/max-age/61")))))
            #expect(direct.url?.absoluteString == harness.url("/max-age/61"))
        }
    }

    /// A body given as `httpBodyStream` was sent as no body at all, and an upload task's too,
    /// both answered 200 (a hunt of 27 November).
    @Test("a body in httpBodyStream reaches the origin whole; an upload task's body, which the protocol cannot read, fails the task")
    func uploadBodies() async throws {
        try await withCachingSession { harness, session in
            let url = try #require(URL(string: harness.url("/items/7")))
            var streamed = URLRequest(url: url)
            streamed.httpMethod = "PUT"
            let payload = Data(repeating: UInt8(ascii: "s"), count: 200_000)
            streamed.httpBodyStream = InputStream(data: payload)
            let (answer, response) = try await fetch(session, streamed)
            #expect(response.statusCode < 300)
            #expect(String(decoding: answer, as: UTF8.self).contains("\(payload.count)"), "\(String(decoding: answer, as: UTF8.self))")

            var upload = URLRequest(url: url)
            upload.httpMethod = "POST"
            let uploaded = await withCheckedContinuation { (continuation: CheckedContinuation<URLError?, Never>) in
                session.uploadTask(with: upload, from: Data("uploaded-body".utf8)) { _, _, error in
                    continuation.resume(returning: error as? URLError)
                }.resume()
            }
            #expect(uploaded?.code == .requestBodyStreamExhausted, "never sent without its body")
            #expect(harness.origin.requestCount(path: "/items/7") == 1, "only the PUT reached the origin")
        }
    }

    /// `timeoutInterval` was ignored: a request to a slow origin waited for the client's own
    /// 30 s timeout whatever the app asked for.
    @Test("URLRequest.timeoutInterval bounds the request: a slow origin fails it with URLError.timedOut; a longer one lets it finish")
    func timeoutIntervalHonoured() async throws {
        try await withCachingSession { harness, session in
            let url = try #require(URL(string: harness.url("/slow/1500")))
            var short = URLRequest(url: url)
            short.timeoutInterval = 0.2
            let started = ContinuousClock.now
            await #expect(throws: URLError.self) { _ = try await fetch(session, short) }
            let failure = await withCheckedContinuation { (continuation: CheckedContinuation<URLError?, Never>) in
                session.dataTask(with: short) { _, _, error in continuation.resume(returning: error as? URLError) }.resume()
            }
            #expect(failure?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(1.4), "both gave up before the origin's 1.5 s answer")

            var long = URLRequest(url: url)
            long.timeoutInterval = 20
            let (_, response) = try await fetch(session, long)
            #expect(response.statusCode == 200)
        }
    }
}
