import BenchmarkSupport
import CachingClient
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same two requests (the fresh hit and the revalidation) through FoundationNetworking's
/// URLSession: with its default URLCache, and with ``CachingURLProtocol`` routing it through
/// the caching client. Prints each against the client's own figures, and how many requests
/// each way sent to the origin.
func compareWithURLSession(_ setup: BenchmarkSetup, freshHit: BenchmarkSupport.Measurement, roundTrip: BenchmarkSupport.Measurement) async throws {
    let origin = setup.origin
    let plain = URLSession(configuration: .default)
    CachingURLProtocol.register(setup.client)
    let routedConfiguration = URLSessionConfiguration.ephemeral
    routedConfiguration.protocolClasses = [CachingURLProtocol.self]
    let routed = URLSession(configuration: routedConfiguration)

    let cases: [(what: String, url: URL, path: String, client: BenchmarkSupport.Measurement)] = [
        ("fresh GET", URL(string: origin.baseURL + "/max-age/3600")!, "/max-age/3600", freshHit),
        ("no-cache GET", URL(string: origin.baseURL + "/no-cache")!, "/no-cache", roundTrip),
    ]
    for (what, url, path, clientFigure) in cases {
        for (sessionName, session) in [("URLSession + default URLCache", plain), ("URLSession + CachingURLProtocol", routed)] {
            try await get(url, with: session)
            origin.resetCounts()
            let measured = try await measureAsync("\(what) through \(sessionName)", samples: 40, iterations: 10) {
                try await get(url, with: session)
            }
            print(measured.summary)
            print("  sent \(origin.requestCount(path: path)) of \(43 * 10) requests to the origin")
            _ = ratio(measured, clientFigure)
        }
    }
    CachingURLProtocol.unregister()
}

private func get(_ url: URL, with session: URLSession) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        session.dataTask(with: url) { _, _, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }.resume()
    }
}
