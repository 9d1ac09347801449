public import CacheEvents
import CachingClient
public import SessionLog
import CacheStore
import Foundation
public import HTTPCaching

/// Runs a HAR capture (as browsers' DevTools save it) through the real caching engine in
/// simulated time, and returns the events CacheScope's cache would have produced: which
/// requests would have been hits, revalidations or misses, and why.
///
/// Responses come from the capture, never the network; the clock jumps to each entry's
/// start time; requests run one after another in capture order. Event times are the
/// entries' offsets from the first one, so the result replays like a recorded session.
///
/// ```swift
/// let archive = try HARReader.load("capture.har")
/// let events = try await HARSimulator.simulate(archive)
/// ```
public enum HARSimulator {
    /// Simulates the capture and returns every event, time-stamped in capture time.
    /// - Parameter mode: `private` (a browser's cache, the default) or `shared` (a CDN's).
    public static func simulate(_ archive: HARArchive, mode: CacheMode = .private) async throws -> [CacheEvent] {
        try await simulateNamingLeftOut(archive, mode: mode).events
    }

    /// ``simulate(_:mode:)``, the entries the simulation could not send (a method that is not
    /// a token, a URL that is not absolute http(s)), and those whose body (unrecorded) was
    /// larger than the simulation stands in for, with its size: indices into `log.entries`.
    public static func simulateNamingLeftOut(
        _ archive: HARArchive, mode: CacheMode = .private
    ) async throws -> (events: [CacheEvent], leftOut: [Int], oversized: [(entry: Int, size: Int)]) {
        let requests = archive.replayRequests()
        let exchanges = requests.map(exchange)
        var configuration = Self.configuration
        configuration.mode = mode
        let result = try await CacheSimulation.run(exchanges, start: start(of: requests), configuration: configuration)
        let leftOut = zip(requests, result.outcomes).compactMap { request, outcome in outcome == nil ? request.entryIndex : nil }
        let oversized = SimulatedExchange.countedSmaller(exchanges, outcomes: result.outcomes)
        return (result.events, leftOut, oversized.map { (requests[$0].entryIndex, requests[$0].responseBodySize) })
    }

    /// The client configuration a capture is simulated with: a memory store large enough for
    /// any capture, with no share limit, and no disk tier.
    static var configuration: CachingClientConfiguration {
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(memoryCapacity: 1 << 30, diskCapacity: 0, maximumEntryShare: 1)
        configuration.statsInterval = .seconds(3600)
        return configuration
    }

    /// The capture's entries as exchanges in start order, and the first one's start.
    static func exchanges(_ archive: HARArchive) -> (exchanges: [SimulatedExchange], start: Date) {
        let requests = archive.replayRequests()
        return (requests.map(exchange), start(of: requests))
    }

    /// The first request's start: the simulation's time zero.
    private static func start(of requests: [HARReplayRequest]) -> Date {
        requests.first?.startDate ?? Date(timeIntervalSince1970: 0)
    }

    private static func exchange(_ captured: HARReplayRequest) -> SimulatedExchange {
        let answer: SimulatedExchange.Answer =
            captured.status > 0
            ? .response(RecordedResponse(
                status: captured.status, statusText: captured.statusText, headers: captured.responseHeaders,
                // An export holds no bodies, only their sizes: a placeholder of that size stands
                // in, so the replay's byte counts are the capture's.
                body: captured.responseBody, bodySize: max(0, captured.responseBodySize)))
            : .failed
        return SimulatedExchange(
            method: captured.method, url: captured.url, requestHeaders: captured.requestHeaders, requestBody: captured.requestBody,
            policy: nil, startDate: captured.startDate, endDate: captured.startDate.addingTimeInterval(captured.duration),
            answer: answer)
    }
}
