import CacheEvents
import CacheStore
import HTTPCaching
import HTTPTypes
@testable import Dashboard

/// The set-up every fleet test starts from: a roster of connected instances and a dashboard
/// attached to them.
enum FleetFixture {
    /// Instances with these names, all connected, with pids 41, 42, …
    static func roster(_ names: String...) -> InstanceRoster {
        InstanceRoster(names.enumerated().map { InstanceStatus(name: $1, pid: Int32(41 + $0), connected: true) })
    }

    /// A dashboard attached to `roster`'s instances.
    static func state(_ roster: InstanceRoster) -> DashboardState {
        var state = DashboardState(mode: .attached(process: "\(roster.instances.count) instances"))
        state.setInstances(roster)
        return state
    }
}

/// Events of a fleet, numbered as they are made.
struct FleetEvents {
    var seq: UInt64 = 0

    /// An event of `instance` at `time`.
    mutating func event(_ kind: CacheEventKind, instance: UInt16, request: UInt64? = nil, time: Double = 1) -> CacheEvent {
        seq += 1
        var event = CacheEvent(seq: seq, time: time, requestID: request, kind: kind)
        event.instance = instance
        return event
    }

    /// A request `id` of `instance` for `key` that missed and was stored (`size` bytes).
    mutating func miss(_ key: String, id: UInt64, instance: UInt16, size: Int = 100) -> [CacheEvent] {
        let url = String(key.dropFirst(4))
        return [
            event(.requestStarted(RequestStarted(method: "GET", url: url, cacheKey: key, policy: "protocol", headers: [:])),
                  instance: instance, request: id),
            event(.stored(Stored(entry: EntryRef(key: key), tier: .memory, size: size, ttl: 60, etag: nil, lastModified: nil, status: 200)),
                  instance: instance),
            event(.requestFinished(RequestFinished(
                status: 200, latency: 0.01, bytesFromNetwork: size, bytesFromCache: 0, outcome: .miss, reason: "not in cache")),
                  instance: instance, request: id),
        ]
    }

    /// A hit of request `id` of `instance` on `key`.
    mutating func hit(_ key: String, id: UInt64, instance: UInt16) -> [CacheEvent] {
        [
            event(.requestStarted(RequestStarted(method: "GET", url: String(key.dropFirst(4)), cacheKey: key, policy: "protocol", headers: [:])),
                  instance: instance, request: id),
            event(.served(Served(source: .cache, status: 200, bytes: 100, outcome: .hit, reason: "fresh")), instance: instance, request: id),
            event(.requestFinished(RequestFinished(
                status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 100, outcome: .hit, reason: "fresh")),
                  instance: instance, request: id),
        ]
    }
}
