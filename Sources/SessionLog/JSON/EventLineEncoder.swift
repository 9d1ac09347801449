import HTTPTypes
import CacheEvents
import CacheStore
import HTTPCaching
import FoundationEssentials
/// Writes one ``CacheEvent`` as one session-log line: the same flat object as its `Codable`
/// form (`seq`, `t`, `req`, `kind`, then the payload's fields; absent optionals left out),
/// followed by a newline, about ten times faster than `JSONEncoder`.
///
/// Non-finite numbers (which JSON cannot express) are left out when the field is optional and
/// written as `0` otherwise.
enum EventLineEncoder {
    /// Appends `event` and a newline to `writer`, redacting sensitive header values if asked;
    /// with `time`, that is its `t` instead of the event's own.
    static func encode(_ event: CacheEvent, time: Double? = nil, redacting: Bool, into writer: inout JSONLineWriter) {
        writer.beginObject()
        writer.key("seq")
        writer.unsigned(event.seq)
        writer.key("t")
        writer.double(time ?? (event.time.isFinite ? event.time : 0))
        if let requestID = event.requestID {
            writer.key("req")
            writer.unsigned(requestID)
        }
        writer.key("kind")
        writer.string(event.kind.name)
        encodePayload(event.kind, redacting: redacting, into: &writer)
        writer.endObject()
        writer.newline()
    }

    // MARK: Payloads

    private static func encodePayload(_ kind: CacheEventKind, redacting: Bool, into w: inout JSONLineWriter) {
        switch kind {
        case .requestStarted(let p):
            w.key("method"); w.string(p.method)
            w.key("url"); w.string(p.url)
            w.key("cacheKey"); w.string(p.cacheKey)
            w.key("policy"); w.string(p.policy)
            w.key("headers"); headers(p.headers, redacting: redacting, into: &w)
        case .lookup(let p):
            w.key("verdict"); w.string(p.verdict.rawValue)
            w.key("reason"); w.string(p.reason)
            optional("age", p.age, into: &w)
            optional("ttl", p.ttl, into: &w)
        case .revalidationSent(let p):
            optional("ifNoneMatch", p.ifNoneMatch, into: &w)
            optional("ifModifiedSince", p.ifModifiedSince, into: &w)
            w.key("background"); w.bool(p.background)
        case .notModified(let p):
            w.key("freshened"); w.int(p.freshened)
            optional("ttl", p.ttl, into: &w)
            if let fields = p.headers { w.key("headers"); headers(fields, redacting: redacting, into: &w) }
        case .modified(let p):
            w.key("status"); w.int(p.status)
        case .served(let p):
            w.key("source"); w.string(p.source.rawValue)
            w.key("status"); w.int(p.status)
            w.key("bytes"); w.int(p.bytes)
            w.key("outcome"); w.string(p.outcome.rawValue)
            w.key("reason"); w.string(p.reason)
            optional("age", p.age, into: &w)
            optional("ttl", p.ttl, into: &w)
            w.key("headers"); headers(p.headers, redacting: redacting, into: &w)
            optional("originError", p.originError, into: &w)
            if let status = p.originStatus { w.key("originStatus"); w.int(status) }
        case .stored(let p):
            w.key("entry"); entryRef(p.entry, into: &w)
            w.key("tier"); w.string(p.tier.rawValue)
            w.key("size"); w.int(p.size)
            optional("ttl", p.ttl, into: &w)
            optional("etag", p.etag, into: &w)
            optional("lastModified", p.lastModified, into: &w)
            w.key("status"); w.int(p.status)
            optional("age", p.age, into: &w)
            if let tags = p.tags {
                w.key("tags"); w.beginArray()
                for tag in tags { w.element(); w.string(tag) }
                w.endArray()
            }
        case .promoted(let p):
            w.key("key"); w.string(p.key)
            w.key("variant"); w.string(p.variant)
        case .evicted(let p):
            w.key("entry"); entryRef(p.entry, into: &w)
            w.key("reason"); w.string(p.reason.rawValue)
            w.key("tier"); w.string(p.tier.rawValue)
            w.key("size"); w.int(p.size)
        case .purged(let p):
            w.key("scope"); w.string(p.scope.word)
            optional("key", p.key, into: &w)
            if case .entry(let id) = p.scope { w.key("variant"); w.string(id.varySignature) }
            if case .since(let date) = p.scope { w.key("since"); required(date.timeIntervalSince1970, into: &w) }
            optional("match", p.scope.match, into: &w)
            optional("origin", p.origin, into: &w)
            w.key("count"); w.int(p.count)
        case .coalesced(let p):
            w.key("leaderID"); w.unsigned(p.leaderID)
        case .requestFinished(let p):
            w.key("status"); w.int(p.status)
            w.key("latency"); required(p.latency, into: &w)
            w.key("bytesFromNetwork"); w.int(p.bytesFromNetwork)
            w.key("bytesFromCache"); w.int(p.bytesFromCache)
            w.key("outcome"); w.string(p.outcome.rawValue)
            w.key("reason"); w.string(p.reason)
            w.key("coalesced"); w.bool(p.coalesced)
            if p.background { w.key("background"); w.bool(true) }
        case .error(let p):
            w.key("message"); w.string(p.message)
        case .storeStats(let p):
            w.key("memoryUsed"); w.int(p.memoryUsed)
            w.key("memoryCapacity"); w.int(p.memoryCapacity)
            w.key("diskUsed"); w.int(p.diskUsed)
            w.key("diskCapacity"); w.int(p.diskCapacity)
            w.key("entries"); w.int(p.entryCount)
        case .entries(let p):
            w.key("entries")
            w.beginArray()
            for info in p.entries {
                w.element()
                entryInfo(info, into: &w)
            }
            w.endArray()
        case .command(let p):
            w.key("name"); w.string(p.name)
            optional("key", p.key, into: &w)
        case .dropped(let p):
            w.key("count"); w.int(p.count)
        }
    }

    // MARK: Nested values

    private static func headers(_ fields: HTTPFields, redacting: Bool, into w: inout JSONLineWriter) {
        w.beginArray()
        for field in fields {
            w.element()
            w.beginObject()
            w.key("name"); w.string(field.name.rawName)
            w.key("value")
            w.string(redacting && SensitiveHeaders.isSensitive(field.name.rawName) ? SensitiveHeaders.redactedValue : field.value)
            w.endObject()
        }
        w.endArray()
    }

    private static func entryRef(_ ref: EntryRef, into w: inout JSONLineWriter) {
        w.beginObject()
        w.key("key"); w.string(ref.key)
        w.key("variant"); w.string(ref.variant)
        w.endObject()
    }

    private static func entryInfo(_ info: EntryInfo, into w: inout JSONLineWriter) {
        w.beginObject()
        w.key("entry"); entryRef(info.entry, into: &w)
        w.key("tier"); w.string(info.tier.rawValue)
        w.key("size"); w.int(info.size)
        optional("ttl", info.ttl, into: &w)
        w.key("age"); required(info.age, into: &w)
        optional("etag", info.etag, into: &w)
        optional("lastModified", info.lastModified, into: &w)
        w.key("hits"); w.int(info.hits)
        w.key("idle"); required(info.idle, into: &w)
        w.key("status"); w.int(info.status)
        w.endObject()
    }

    // MARK: Scalars

    private static func required(_ value: Double, into w: inout JSONLineWriter) {
        w.double(value.isFinite ? value : 0)
    }

    private static func optional(_ name: StaticString, _ value: Double?, into w: inout JSONLineWriter) {
        guard let value, value.isFinite else { return }
        w.key(name)
        w.double(value)
    }

    private static func optional(_ name: StaticString, _ value: String?, into w: inout JSONLineWriter) {
        guard let value else { return }
        w.key(name)
        w.string(value)
    }
}
