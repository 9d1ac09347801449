import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
@testable import SessionLog
import Testing

/// A purge event carries the store's own `PurgeScope`; in a log it is a `scope` word with the
/// key, variant or date that goes with it, and reads back as the same scope.
@Suite("Purge scopes in session logs")
struct PurgeScopeCodecTests {
    static let key = CacheKey(method: "GET", uri: "https://example.com/a?b=1")

    static var scopes: [PurgeScope] {
        guard let key else { return [] }
        return [
            .key(key), .entry(EntryID(key: key, varySignature: "accept-language=\"fr\"")), .all, .expired,
            .since(Date(timeIntervalSince1970: 1_764_000_000.5)), .tag("product-42"), .prefix("https://example.com/a/"),
            .filter("tag:x & size>1KB | url:\"a b\""),
        ]
    }

    @Test(
        "every scope, with or without the instance it came from, survives the fast codec and JSONDecoder",
        arguments: PurgeScopeCodecTests.scopes, [nil, "web-2:4711"])
    func roundTrip(scope: PurgeScope, origin: String?) throws {
        let event = CacheEvent(seq: 9, time: 1.5, kind: .purged(Purged(scope: scope, count: 3, origin: origin)))
        var writer = JSONLineWriter()
        EventLineEncoder.encode(event, redacting: false, into: &writer)
        var line = writer.bytes
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains("\"scope\":\"\(scope.word)\""))
        #expect(text.contains("\"origin\"") == (origin != nil), "origin written only when there is one: \(text)")
        #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(line)) == event)
        if line.last == 0x0A { line.removeLast() }
        var decoder = EventLineDecoder()
        guard case .event(let parsed, _) = line.withUnsafeBufferPointer({ decoder.decode($0) }) else {
            Issue.record("the fast parser did not read \(text)")
            return
        }
        #expect(parsed == event)
    }

    @Test("a stored event's tags survive the log (read by JSONDecoder); a line from before tags reads with none")
    func storedTags() throws {
        let stored = Stored(
            entry: EntryRef(key: "GET https://example.com/a"), tier: .both, size: 10, ttl: 60, etag: nil, lastModified: nil, status: 200,
            tags: ["product-42", "sale"])
        let event = CacheEvent(seq: 1, time: 0.5, kind: .stored(stored))
        var writer = JSONLineWriter()
        EventLineEncoder.encode(event, redacting: false, into: &writer)
        var line = writer.bytes
        #expect(String(decoding: line, as: UTF8.self).contains("\"tags\":[\"product-42\",\"sale\"]"))
        if line.last == 0x0A { line.removeLast() }
        var decoder = EventLineDecoder()
        let outcome = line.withUnsafeBufferPointer { decoder.decode($0) }
        if case .event(let parsed, _) = outcome { #expect(parsed == event) } else {
            #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(line)) == event)
        }
        let old = #"{"seq":1,"t":0.5,"kind":"stored","entry":{"key":"GET https://example.com/a","variant":""},"tier":"both","size":10,"status":200}"#
        let decoded = try JSONDecoder().decode(CacheEvent.self, from: Data(old.utf8))
        guard case .stored(let payload) = decoded.kind else {
            Issue.record("not a stored event: \(decoded)")
            return
        }
        #expect(payload.tags == nil)
    }

    @Test("a key that is not `METHOD URI`, or an unknown word, reads as a purge of everything")
    func unreadableScopes() {
        #expect(PurgeScope(word: "key", key: "no-space", variant: nil, since: nil) == .all)
        #expect(PurgeScope(word: "key", key: nil, variant: nil, since: nil) == .all)
        #expect(PurgeScope(word: "tag", key: "GET https://a/", variant: nil, since: nil) == .all)
        #expect(PurgeScope(word: "tag", key: nil, variant: nil, since: nil, match: "x") == .tag("x"))
        #expect(PurgeScope(word: "prefix", key: nil, variant: nil, since: nil) == .all)
        #expect(PurgeScope(word: "key", key: "GET https://a/", variant: nil, since: nil).key?.uri == "https://a/")
    }
}
