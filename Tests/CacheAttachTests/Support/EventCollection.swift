import CacheAttach
import CacheEvents
import SessionLog
import Foundation

/// Why collecting events stopped early.
struct CollectionFailure: Error, CustomStringConvertible {
    var description: String
}

/// Reads `client.events` until `done` says the collected events suffice. After `timeout` the
/// client is closed, which ends the stream, and the collection fails naming what it had.
func collect(
    _ client: AttachClient, timeout: Duration = .seconds(5), until done: ([CacheEvent]) -> Bool
) async throws -> [CacheEvent] {
    let watchdog = Task {
        try await Task.sleep(for: timeout)
        client.close()
    }
    defer { watchdog.cancel() }
    var events: [CacheEvent] = []
    for try await event in client.events {
        events.append(event)
        if done(events) { return events }
    }
    throw CollectionFailure(description: "stream ended after \(events.count) events: \(events.map(\.kind.name))")
}

/// Collects exactly `count` events.
func collect(_ client: AttachClient, count: Int, timeout: Duration = .seconds(5)) async throws -> [CacheEvent] {
    try await collect(client, timeout: timeout) { $0.count >= count }
}

/// Waits until `condition` holds, polling; false if it never did within `timeout`.
func eventually(timeout: Duration = .seconds(3), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// The `type` field and, for event lines, the event in a raw server line.
struct RawServerLine: Decodable {
    var type: String
    var id: Int?
    var succeeded: Bool?
    var message: String?

    static func parse(_ line: String) throws -> RawServerLine {
        try JSONDecoder().decode(RawServerLine.self, from: Data(line.utf8))
    }

    /// The event, when this is an event line.
    static func event(_ line: String) -> CacheEvent? {
        guard (try? parse(line))?.type == "event" else { return nil }
        return try? JSONDecoder().decode(CacheEvent.self, from: Data(line.utf8))
    }
}
