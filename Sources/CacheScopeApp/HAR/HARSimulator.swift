public import CacheEvents
import CachingClient
public import SessionLog
import CacheStore
import Foundation
public import HTTPCaching
import HTTPTypes
import Synchronization

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
        let requests = archive.replayRequests()
        let clock = SimulatedClock(start: requests.first?.startDate ?? Date(timeIntervalSince1970: 0))
        let transport = HARTransport(requests: requests, clock: clock)
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(memoryCapacity: 1 << 30, maximumEntryShare: 1)
        configuration.mode = mode
        configuration.transport = transport
        configuration.followRedirects = false  // a capture lists each hop as its own entry
        configuration.statsInterval = .seconds(3600)
        configuration.now = { clock.now }
        let client = try await CachingClient(configuration: configuration)
        let collected = Mutex<[CacheEvent]>([])
        // The client's bus reads the simulated clock, so events are stamped in capture time.
        let stream = client.events.subscribe(.lossless(bufferSize: 50_000_000))
        let collector = Task {
            for await event in stream { collected.withLock { $0.append(event) } }
        }
        for (index, captured) in requests.enumerated() {
            clock.set(captured.startDate)
            transport.setCurrent(index)
            let headers = captured.requestHeaders
            guard let method = HTTPRequest.Method(captured.method),
                let request = CachingClient.request(url: captured.url, method: method, headers: headers)
            else { continue }
            _ = try? await client.data(for: request, body: captured.requestBody)
        }
        try await client.shutdown()
        await collector.value
        return collected.withLock { $0 }
    }
}
