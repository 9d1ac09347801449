import CacheEvents
import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes

/// Runs recorded requests one after another through a real ``CachingClient`` whose transport
/// answers from the recording (``ReplayTransport``) and whose clock is simulated: set to each
/// request's start before it is sent and to its recorded answer's arrival when the transport
/// answers. What HAR import and what-if replay share.
enum CacheSimulation {
    /// What a simulation produced.
    struct Result {
        /// Every event the client published, stamped in recorded time (seconds after the start).
        var events: [CacheEvent]
        /// Each exchange's outcome (`error` when the client threw; `nil` for a request that
        /// could not be made: an unknown method or a URL that is not http(s)).
        var outcomes: [CacheOutcome?]
    }

    /// Requests between two takes of the simulation's events: a million requests publish a
    /// few million events, far below the buffer's 50 million.
    static let drainEvery = 1_000_000

    /// Runs `exchanges` in order through a client made from `configuration` (its transport,
    /// clock and redirect following are replaced).
    static func run(_ exchanges: [SimulatedExchange], start: Date, configuration: CachingClientConfiguration) async throws -> Result {
        let clock = SimulatedClock(start: start)
        let transport = ReplayTransport(exchanges: exchanges, clock: clock)
        var configuration = configuration
        configuration.transport = transport
        configuration.followRedirects = false  // a recording lists each hop as its own request
        configuration.now = { clock.now }
        // The disk tier is modelled in memory (its index in the directory given), and nothing
        // is kept from it because its queue is long: the outcome must not depend on the
        // machine's disk.
        configuration.store.diskMedium = .simulated
        configuration.store.diskBacklogLimit = .max
        let client = try await CachingClient(configuration: configuration)
        // The client's bus reads the simulated clock, so events are stamped in recorded time.
        // Nobody waits on them during the run (a waiting subscriber would be woken, a thread
        // hop, every 20 ms): they are taken every ``drainEvery`` requests, so the buffer never
        // fills, and once the run is over.
        let stream = client.events.subscribe(.lossless(bufferSize: 50_000_000))
        var events: [CacheEvent] = []
        var outcomes: [CacheOutcome?] = []
        outcomes.reserveCapacity(exchanges.count)
        var requestByURL: [String: HTTPRequest?] = [:]
        for (index, exchange) in exchanges.enumerated() {
            if index % drainEvery == drainEvery - 1 { events.append(contentsOf: stream.take()) }
            clock.set(exchange.startDate)
            transport.setCurrent(index)
            let parsed = requestByURL.memo(exchange.url) { CachingClient.request(url: exchange.url) }
            guard let method = HTTPRequest.Method(exchange.method), var request = parsed else {
                outcomes.append(nil)
                continue
            }
            if method != .get { request.method = method }  // the parsed request is a GET
            request.headerFields = exchange.requestHeaders
            let response = try? await client.data(for: request, body: exchange.requestBody, policy: exchange.policy)
            outcomes.append(response?.outcome ?? .error)
            // A stale-while-revalidate refresh this request started ends before the next
            // request, answered as of this one (the transport's current exchange and clock):
            // left running, it raced the loop and the same log gave different results.
            await client.finishBackgroundRefreshes(within: .seconds(30))
        }
        try await client.shutdown()
        for await batch in stream.batches {
            if events.isEmpty { events = batch } else { events.append(contentsOf: batch) }  // one batch, usually: no copy
        }
        return Result(events: events, outcomes: outcomes)
    }
}
