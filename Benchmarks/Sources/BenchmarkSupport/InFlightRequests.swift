import CacheEvents

/// What the synthetic event streams share: up to eight requests in flight, each holding the
/// events it has still to send, and events numbered in simulated time. Each stream decides how
/// time advances, what a request's script is and what else happens around it.
///
/// ```swift
/// flight.time += 0.0001
/// if flight.wantsRequest(using: &random) { flight.start(flight.newID(), script: script) }
/// body(flight.nextEvent(using: &random))
/// ```
public struct InFlightRequests {
    /// Simulated seconds since the start.
    public var time = 0.0
    private var seq: UInt64 = 0
    private var nextRequestID: UInt64 = 0
    private var requests: [(id: UInt64, script: [CacheEventKind])] = []
    private var lastNewSecond = -1

    /// No requests, at time 0.
    public init() {}

    /// The whole second `time` is in, when it has moved into one not returned before (once a
    /// second: when the streams report store statistics); otherwise `nil`.
    public mutating func newSecond() -> Int? {
        let second = Int(time)
        guard second != lastNewSecond else { return nil }
        lastNewSecond = second
        return second
    }

    /// Whether to start another request: always when none is in flight, never when eight are,
    /// else three times in ten.
    public func wantsRequest(using random: inout some RandomNumberGenerator) -> Bool {
        requests.count < 8 && (requests.isEmpty || random.next() % 10 < 3)
    }

    /// The ID of the next request to start.
    public mutating func newID() -> UInt64 {
        nextRequestID += 1
        return nextRequestID
    }

    /// Puts request `id` in flight with the events it will send.
    public mutating func start(_ id: UInt64, script: [CacheEventKind]) {
        requests.append((id, script))
    }

    /// The next event of a request in flight chosen at random; a request whose script is done
    /// leaves the flight. There must be one in flight.
    public mutating func nextEvent(using random: inout some RandomNumberGenerator) -> CacheEvent {
        let slot = Int(random.next() % UInt64(requests.count))
        let kind = requests[slot].script.removeFirst()
        let id = requests[slot].id
        if requests[slot].script.isEmpty { requests.remove(at: slot) }
        return event(kind, request: id)
    }

    /// `kind` as the next event, at the current time.
    public mutating func event(_ kind: CacheEventKind, request: UInt64? = nil) -> CacheEvent {
        seq += 1
        return CacheEvent(seq: seq, time: time, requestID: request, kind: kind)
    }
}
