@testable import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("Codecs")
struct CodecTests {
    static let key = StorageKey([UInt8](repeating: 7, count: 32))

    func entry(_ stored: StoredResponse, body: [UInt8]) -> CacheEntry {
        let metadata = EntryMetadata(
            id: EntryID(stored), created: Fixtures.epoch, lastAccess: Fixtures.epoch, accessCount: 0, size: 10, tier: .memory,
            freshUntil: Fixtures.epoch.addingTimeInterval(60), expiresAt: nil)
        return CacheEntry(stored: stored, body: body, metadata: metadata, storageKey: Self.key)
    }

    @Test("entry files round-trip, plain and encrypted, including Vary keys and odd field values", arguments: [false, true])
    func roundTrip(encrypted: Bool) throws {
        let codec = EntryFileCodec(contentKey: encrypted ? NamespaceKeys(master: EncryptionTests.key.symmetricKey).content : nil)
        let stored = Fixtures.response(
            "https://example.com/a?b=1",
            status: 203,
            headers: [.vary: "Accept-Language, Accept-Encoding,  X-Custom", .eTag: "W/\"x\"", HTTPField.Name("X-Empty")!: ""],
            requestHeaders: [.acceptLanguage: "EN-us,  de;q=0.5", HTTPField.Name("X-Custom")!: "a,b"])
        let original = entry(stored, body: Fixtures.body(777))
        let decoded = try codec.decode(try codec.encode(original), storageKey: Self.key)
        #expect(decoded.stored == stored)
        #expect(decoded.stored.varyKey == stored.varyKey)
        #expect(decoded.body == original.body)
        #expect(decoded.created == Fixtures.epoch)
        #expect(decoded.freshUntil == Fixtures.epoch.addingTimeInterval(60))
        #expect(decoded.expiresAt == nil)
    }

    @Test("a Vary key reads back exactly as written, never normalised again", arguments: ["text/html; q=0.5", "text/html;q=0.5", "a  b"])
    func varyKeyExact(value: String) throws {
        let codec = EntryFileCodec(contentKey: nil)
        let varyKey = VaryKey(fields: [VaryKey.Field(name: "accept", value: value)], isWildcard: false)
        let made = Fixtures.response("https://example.com/v", headers: [.vary: "Accept"])
        let stored = StoredResponse(
            key: made.key, response: made.response, requestTime: made.requestTime, responseTime: made.responseTime, varyKey: varyKey)
        let decoded = try codec.decode(try codec.encode(entry(stored, body: [1])), storageKey: Self.key)
        #expect(decoded.stored.varyKey == varyKey)
        #expect(EntryID(decoded.stored) == EntryID(stored))
    }

    @Test("Vary: * round-trips; a URI that does not re-normalise round-trips through the JSON fallback")
    func fallbacks() throws {
        let codec = EntryFileCodec(contentKey: nil)
        let wildcard = Fixtures.response("https://example.com/star", headers: [.vary: "*"])
        #expect(try codec.decode(try codec.encode(entry(wildcard, body: [])), storageKey: Self.key).stored == wildcard)
        // A key decoded from JSON is taken as is, even if normalising it again would change it.
        let odd = try JSONDecoder().decode(CacheKey.self, from: Data(#"{"method":"GET","uri":"https://EXAMPLE.com/x"}"#.utf8))
        let stored = StoredResponse(
            key: odd, response: HTTPResponse(status: .ok), requestTime: Fixtures.epoch, responseTime: Fixtures.epoch, varyKey: .none)
        #expect(try codec.decode(try codec.encode(entry(stored, body: [1])), storageKey: Self.key).stored.key == odd)
    }

    @Test("a file under another name, or with a different key, fails verification")
    func binding() throws {
        for contentKey in [nil, NamespaceKeys(master: EncryptionTests.key.symmetricKey).content] {
            let codec = EntryFileCodec(contentKey: contentKey)
            let file = try codec.encode(entry(Fixtures.response("https://example.com/a"), body: [1, 2, 3]))
            // The name is bound in: a checksum over it (plain), or the AEAD's associated data (sealed).
            let expected: EntryFileError = contentKey == nil ? .checksumMismatch : .authenticationFailed
            #expect(throws: expected) { try codec.decode(file, storageKey: StorageKey([UInt8](repeating: 8, count: 32))) }
        }
        let sealed = try EntryFileCodec(contentKey: NamespaceKeys(master: EncryptionTests.key.symmetricKey).content)
            .encode(entry(Fixtures.response("https://example.com/a"), body: [1]))
        let otherKey = NamespaceKeys(master: try EncryptionKey(bytes: [UInt8](repeating: 1, count: 32)).symmetricKey).content
        #expect(throws: EntryFileError.authenticationFailed) { try EntryFileCodec(contentKey: otherKey).decode(sealed, storageKey: Self.key) }
        #expect(throws: EntryFileError.kindMismatch(fileIsEncrypted: true)) { try EntryFileCodec(contentKey: nil).decode(sealed, storageKey: Self.key) }
    }

    @Test("storage keys print as 64 hex digits and parse back; other names are rejected")
    func storageKeyHex() {
        let key = StorageKey((0..<32).map { UInt8($0 * 5) })
        #expect(key.hex.count == 64)
        #expect(StorageKey(hex: key.hex) == key)
        #expect(StorageKey(hex: key.hex.uppercased()) == nil)
        #expect(StorageKey(hex: "abc") == nil)
        #expect(StorageKey(hex: String(repeating: "g", count: 64)) == nil)
    }

    @Test("entry descriptions for the index round-trip")
    func infoRoundTrip() throws {
        let info = EntryInfo(Fixtures.response("https://example.com/a", headers: [.eTag: "\"1\"", .age: "30"]))
        #expect(try EntryInfo(decoding: info.encoded()) == info)
        #expect(info.initialAge == 30)
        let truncated = #expect(throws: BinaryReader.Failure.self) { try EntryInfo(decoding: Array(info.encoded().prefix(10))) }
        #expect(truncated?.description.isEmpty == false, "the failure says what is wrong")
    }
}
