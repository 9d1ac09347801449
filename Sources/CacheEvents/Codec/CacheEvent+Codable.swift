import CacheStore
/// Errors decoding one event.
public enum CacheEventDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `kind` is not one this version knows; readers skip such events and count them.
    case unknownKind(String)

    public var description: String {
        switch self {
        case .unknownKind(let kind): return "unknown event kind \"\(kind)\""
        }
    }
}

/// Events encode as one flat JSON object: `seq`, `t` (seconds), `req` (request ID, when the
/// event belongs to a request), `kind`, then the payload's own fields — so `jq` can select on
/// any field directly:
///
/// ```json
/// {"seq":7,"t":1.204,"req":3,"kind":"lookup","verdict":"fresh","reason":"max-age=60","age":4,"ttl":56}
/// ```
///
/// Unknown fields are ignored; an unknown `kind` throws ``CacheEventDecodingError/unknownKind(_:)``.
extension CacheEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case seq, t, req, kind
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        let time = try container.decode(Double.self, forKey: .t)
        guard CacheEvent.possibleTimes.contains(time) else {
            throw DecodingError.dataCorruptedError(
                forKey: .t, in: container,
                debugDescription: "\(time) is not a session's time (at most \(Int(CacheEvent.possibleTimes.upperBound)) seconds, about 31 years, either side of its start)")
        }
        let kind = try CacheEventKind(name: name, decoder: decoder)
        if let (field, status) = kind.impossibleStatus {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + field, debugDescription: "is \(status), not an HTTP status (100 to 999, or 0 for no response)"))
        }
        if let (field, problem) = kind.impossibleNumber {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [FieldKey(stringValue: field)], debugDescription: problem))
        }
        guard let seq = try Self.counter(.seq, in: container, decoder: decoder) else {
            throw DecodingError.keyNotFound(CodingKeys.seq, .init(codingPath: decoder.codingPath, debugDescription: "no seq"))
        }
        self.init(seq: seq, time: time, requestID: try Self.counter(.req, in: container, decoder: decoder), kind: kind)
    }

    /// `seq` or `req`, a whole number from 0; `nil` when absent. (Foundation reports `-3` or
    /// `1e20` read as a `UInt64` as "not valid JSON", naming no field.)
    private static func counter(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>, decoder: any Decoder
    ) throws -> UInt64? {
        do {
            return try container.decodeIfPresent(UInt64.self, forKey: key)
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
        } catch {
            // Foundation's own "number not representable", which it later reports as bad JSON.
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath + [key], debugDescription: "is not a whole number from 0 to \(UInt64.max)"))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(time, forKey: .t)
        try container.encodeIfPresent(requestID, forKey: .req)
        try container.encode(kind.name, forKey: .kind)
        try kind.encodePayload(to: encoder)
    }
}

/// A member name or an array index, for naming the field a decoding error is about.
private struct FieldKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = (String(intValue), intValue) }
}

extension CacheEventKind {
    /// The payload's first status field that is no HTTP status (``CacheEvent/isPossibleStatus(_:)``)
    /// with its path, or `nil`: what decoding checks. Nothing is built for a valid event.
    fileprivate var impossibleStatus: (field: [any CodingKey], value: Int)? {
        func check(_ status: Int?, _ path: @autoclosure () -> [any CodingKey]) -> (field: [any CodingKey], value: Int)? {
            guard let status, !CacheEvent.isPossibleStatus(status) else { return nil }
            return (path(), status)
        }
        let status = FieldKey(stringValue: "status")
        switch self {
        case .modified(let modified): return check(modified.status, [status])
        case .served(let served):
            return check(served.status, [status]) ?? check(served.originStatus, [FieldKey(stringValue: "originStatus")])
        case .stored(let stored): return check(stored.status, [status])
        case .requestFinished(let finished): return check(finished.status, [status])
        case .entries(let snapshot):
            for (index, entry) in snapshot.entries.enumerated() {
                if let found = check(entry.status, [FieldKey(stringValue: "entries"), FieldKey(intValue: index), status]) { return found }
            }
            return nil
        default: return nil
        }
    }

    /// The payload's first byte count, size, count or duration outside what an event may
    /// carry (``CacheEvent/possibleAmounts``, ``CacheEvent/possibleDurations``), with what is
    /// wrong with it, or `nil`: what decoding checks besides the statuses.
    fileprivate var impossibleNumber: (field: String, problem: String)? {
        func amount(_ field: String, _ value: Int?) -> (field: String, problem: String)? {
            guard let value, !CacheEvent.possibleAmounts.contains(value) else { return nil }
            return (field, "is \(value), not an amount an event may carry (0 to \(CacheEvent.possibleAmounts.upperBound))")
        }
        func duration(_ field: String, _ value: Double?) -> (field: String, problem: String)? {
            guard let value, !CacheEvent.possibleDurations.contains(value) else { return nil }
            return (field, "is \(value), not a duration an event may carry (at most 1e12 seconds either side of zero)")
        }
        switch self {
        case .lookup(let lookup): return duration("age", lookup.age) ?? duration("ttl", lookup.ttl)
        case .notModified(let notModified): return amount("freshened", notModified.freshened) ?? duration("ttl", notModified.ttl)
        case .served(let served): return amount("bytes", served.bytes) ?? duration("age", served.age) ?? duration("ttl", served.ttl)
        case .stored(let stored): return amount("size", stored.size) ?? duration("ttl", stored.ttl) ?? duration("age", stored.age)
        case .evicted(let evicted): return amount("size", evicted.size)
        case .purged(let purged): return amount("count", purged.count)
        case .requestFinished(let finished):
            return duration("latency", finished.latency) ?? amount("bytesFromNetwork", finished.bytesFromNetwork)
                ?? amount("bytesFromCache", finished.bytesFromCache)
        case .storeStats(let stats):
            // Not the capacities: configured, up to 2^63 − 1 (`--disk-capacity`), and never counted up.
            return amount("memoryUsed", stats.memoryUsed) ?? amount("diskUsed", stats.diskUsed) ?? amount("entries", stats.entryCount)
        case .dropped(let dropped): return amount("count", dropped.count)
        case .entries(let snapshot):
            // Summed too (a fleet's bytes per instance, the expiry outlook, a purge preview).
            for (index, entry) in snapshot.entries.enumerated() {
                let field = "entries[\(index)]."
                if let found = amount(field + "size", entry.size) ?? amount(field + "hits", entry.hits) ?? duration(field + "ttl", entry.ttl)
                    ?? duration(field + "age", entry.age) ?? duration(field + "idle", entry.idle)
                {
                    return found
                }
            }
            return nil
        default: return nil
        }
    }

    init(name: String, decoder: any Decoder) throws {
        switch name {
        case "requestStarted": self = .requestStarted(try RequestStarted(from: decoder))
        case "lookup": self = .lookup(try Lookup(from: decoder))
        case "revalidationSent": self = .revalidationSent(try RevalidationSent(from: decoder))
        case "notModified": self = .notModified(try NotModified(from: decoder))
        case "modified": self = .modified(try Modified(from: decoder))
        case "served": self = .served(try Served(from: decoder))
        case "stored": self = .stored(try Stored(from: decoder))
        case "promoted": self = .promoted(try EntryRef(from: decoder))
        case "evicted": self = .evicted(try Evicted(from: decoder))
        case "purged": self = .purged(try Purged(from: decoder))
        case "coalesced": self = .coalesced(try Coalesced(from: decoder))
        case "requestFinished": self = .requestFinished(try RequestFinished(from: decoder))
        case "error": self = .error(try ErrorInfo(from: decoder))
        case "storeStats": self = .storeStats(try StoreStats(from: decoder))
        case "entries": self = .entries(try EntriesSnapshot(from: decoder))
        case "command": self = .command(try CommandInfo(from: decoder))
        case "dropped": self = .dropped(try Dropped(from: decoder))
        default: throw CacheEventDecodingError.unknownKind(name)
        }
    }

    func encodePayload(to encoder: any Encoder) throws {
        switch self {
        case .requestStarted(let payload): try payload.encode(to: encoder)
        case .lookup(let payload): try payload.encode(to: encoder)
        case .revalidationSent(let payload): try payload.encode(to: encoder)
        case .notModified(let payload): try payload.encode(to: encoder)
        case .modified(let payload): try payload.encode(to: encoder)
        case .served(let payload): try payload.encode(to: encoder)
        case .stored(let payload): try payload.encode(to: encoder)
        case .promoted(let payload): try payload.encode(to: encoder)
        case .evicted(let payload): try payload.encode(to: encoder)
        case .purged(let payload): try payload.encode(to: encoder)
        case .coalesced(let payload): try payload.encode(to: encoder)
        case .requestFinished(let payload): try payload.encode(to: encoder)
        case .error(let payload): try payload.encode(to: encoder)
        case .storeStats(let payload): try payload.encode(to: encoder)
        case .entries(let payload): try payload.encode(to: encoder)
        case .command(let payload): try payload.encode(to: encoder)
        case .dropped(let payload): try payload.encode(to: encoder)
        }
    }
}
