import CacheEvents
import CacheStore
@testable import CachingClient
@testable import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

/// A wall clock tests move forward by hand, so expiry needs no sleeping.
final class TestClock: Sendable {
    private let current = Mutex(Date())

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A real demo origin on a loopback port and a caching client in front of it.
///
/// A class so that a test which ends early — a failed `#require`, a handshake that gave up, a
/// time limit's cancellation — still shuts its client down: AsyncHTTPClient traps when a client
/// is released while running, which would take the whole test process down with it.
final class Harness: Sendable {
    let origin: DemoOrigin
    let client: CachingClient
    let clock: TestClock
    let directory: URL?
    /// Stopped, or handed over to a relaunched harness: nothing left to clean up.
    private let finished = Mutex(false)

    private init(origin: DemoOrigin, client: CachingClient, clock: TestClock, directory: URL?) {
        self.origin = origin
        self.client = client
        self.clock = clock
        self.directory = directory
    }

    deinit {
        guard !finished.withLock({ $0 }) else { return }
        let (client, origin, directory) = (self.client, self.origin, self.directory)
        Task {
            try? await client.shutdown()
            try? await origin.stop()
            if let directory { try? FileManager.default.removeItem(at: directory) }
        }
    }

    static func start(
        disk: Bool = false, policy: CachePolicy = .useProtocolCachePolicy, mode: CacheMode = .private,
        timeout: Duration = .seconds(5), configure: (inout CachingClientConfiguration) -> Void = { _ in }
    ) async throws -> Harness {
        let clock = TestClock()
        let origin = try await DemoOrigin.start(now: { clock.now })
        var configuration = CachingClientConfiguration()
        var directory: URL?
        if disk {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-client-\(UUID().uuidString)")
            directory = folder
            configuration.store = StoreConfiguration(directory: folder)
        }
        configuration.defaultPolicy = policy
        configuration.mode = mode
        configuration.requestTimeout = timeout
        configuration.now = { clock.now }
        configure(&configuration)
        let client = try await CachingClient(configuration: configuration)
        return Harness(origin: origin, client: client, clock: clock, directory: directory)
    }

    /// Shuts the client down (closing its store) and starts a new one with the same
    /// configuration — the same store directory, origin and clock — as a relaunched app would.
    func relaunched() async throws -> Harness {
        finished.withLock { $0 = true }  // the origin and directory live on in the new harness
        try await client.shutdown()
        let client = try await CachingClient(configuration: client.configuration)
        return Harness(origin: origin, client: client, clock: clock, directory: directory)
    }

    func url(_ path: String) -> String { origin.baseURL + path }

    func get(_ path: String, headers: HTTPFields = [:], policy: CachePolicy? = nil) async throws -> ClientResponse {
        try await client.data(from: url(path), headers: headers, policy: policy)
    }

    func send(_ method: HTTPRequest.Method, _ path: String) async throws -> ClientResponse {
        try await client.data(for: CachingClient.request(url: url(path), method: method)!, body: Data("x".utf8))
    }

    func stop() async throws {
        finished.withLock { $0 = true }
        try await client.shutdown()
        try? await origin.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

// MARK: Handshakes instead of sleeping

/// Why a handshake gave up: what it waited for and what it saw.
struct HandshakeTimeout: Error, CustomStringConvertible {
    let description: String
}

/// The origin's gate on one request target: its responses are held until ``open()``.
struct OriginGate {
    fileprivate let gate: DemoOrigin.ResponseGate

    /// Requests for the target that reached the origin since the gate closed.
    var arrivals: Int { gate.arrivals }

    /// Lets every held response go, and every later one straight through.
    func open() { gate.open() }
}

extension Harness {
    /// Holds the origin's responses to `path` (target as sent) until the gate is opened, so a
    /// test decides who leads by handshakes, not by a slow endpoint and a sleep.
    func hold(_ path: String) -> OriginGate {
        OriginGate(gate: origin.holdResponses(to: path))
    }

    /// Waits until `count` requests have reached `gate` (and are held there).
    func waitForArrivals(_ count: Int, at gate: OriginGate) async throws {
        try await waitUntil("\(count) requests for \(gate.gate.target) at the origin", seen: { "\(gate.arrivals)" }) {
            gate.arrivals >= count
        }
    }

    /// Waits until `count` requests are waiting for another request's origin fetch.
    func waitForFollowers(_ count: Int) async throws {
        try await waitUntil("\(count) requests waiting for a leader", seen: { "\(client.coalescer.waiterCount)" }) {
            client.coalescer.waiterCount >= count
        }
    }

    /// Two GETs of `path`, the second coalesced onto the first: the leader's response is held
    /// at the origin until the follower waits for it.
    func leaderAndFollower(_ path: String) async throws -> (leader: ClientResponse, follower: ClientResponse) {
        let gate = hold(path)
        let leaderTask = Task { try await get(path) }
        try await waitForArrivals(1, at: gate)
        let followerTask = Task { try await get(path) }
        try await waitForFollowers(1)
        gate.open()
        return try await (leaderTask.value, followerTask.value)
    }

    /// Polls `condition` (every 2 ms) until it holds; throws after 20 s, naming what it saw.
    /// Waiting for a state, not for time: the only sleep is the poll's.
    func waitUntil(
        _ what: String, seen: () -> String, _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw HandshakeTimeout(description: "gave up waiting for \(what); saw \(seen())")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Collects the events of a subscription in the background.
final class EventLog: Sendable {
    private let events = Mutex<[CacheEvent]>([])
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ stream: some AsyncSequence<CacheEvent, Never> & Sendable) {
        let task = Task { [self] in
            for await event in stream { self.events.withLock { $0.append(event) } }
        }
        self.task.withLock { $0 = task }
    }

    var all: [CacheEvent] { events.withLock { $0 } }

    /// The kind names of one request's events, in order.
    func kinds(of requestID: UInt64) -> [String] {
        all.filter { $0.requestID == requestID }.map(\.kind.name)
    }

    /// Waits until `condition` holds on the events, up to `seconds`.
    func wait(seconds: Double = 5, until condition: ([CacheEvent]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(all)
    }
}

// MARK: Running a test against a harness

extension Harness {
    /// Runs `body` with this harness, then stops it, also when `body` throws.
    func run(_ body: (Harness) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            try? await stop()
            throw error
        }
        try await stop()
    }

    /// ``run(_:)`` with a log of every event the client publishes from the start (lossless,
    /// without a snapshot).
    func runLogged(bufferSize: Int = 10_000, _ body: (Harness, EventLog) async throws -> Void) async throws {
        let log = await eventLog(bufferSize: bufferSize)
        try await run { try await body($0, log) }
    }

    /// A lossless subscription to the client's events, without a snapshot, collected into a log.
    func eventLog(bufferSize: Int = 10_000) async -> EventLog {
        EventLog(await client.subscribe(.lossless(bufferSize: bufferSize), snapshot: false))
    }
}
