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

    /// Writes an entry's metadata and body files and reads them back together.
    func roundTrip(_ codec: EntryFileCodec, _ entry: CacheEntry, body id: BodyID = BodyID(42)) throws -> EntryFileCodec.Decoded {
        let metadata = try codec.encodeMetadata(entry, body: id)
        let body = try codec.encodeBody(entry.body, storageKey: Self.key, id: id)
        return try codec.decode(metadata: metadata, storageKey: Self.key, expectedKey: nil) { (asked: BodyID) throws(EntryFileError) in
            guard asked == id else { throw EntryFileError.malformed("asked for body \(asked)") }
            return body
        }
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
        let decoded = try roundTrip(codec, original)
        #expect(decoded.stored == stored)
        #expect(decoded.bodyID == BodyID(42))
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
        let decoded = try roundTrip(codec, entry(stored, body: [1]))
        #expect(decoded.stored.varyKey == varyKey)
        #expect(EntryID(decoded.stored) == EntryID(stored))
    }

    @Test("Vary: * round-trips; a URI that does not re-normalise round-trips through the JSON fallback")
    func fallbacks() throws {
        let codec = EntryFileCodec(contentKey: nil)
        let wildcard = Fixtures.response("https://example.com/star", headers: [.vary: "*"])
        #expect(try roundTrip(codec, entry(wildcard, body: [])).stored == wildcard)
        // A key decoded from JSON is taken as is, even if normalising it again would change it.
        let odd = try JSONDecoder().decode(CacheKey.self, from: Data(#"{"method":"GET","uri":"https://EXAMPLE.com/x"}"#.utf8))
        let stored = StoredResponse(
            key: odd, response: HTTPResponse(status: .ok), requestTime: Fixtures.epoch, responseTime: Fixtures.epoch, varyKey: .none)
        #expect(try roundTrip(codec, entry(stored, body: [1])).stored.key == odd)
    }

    @Test("a file under another name, or with a different key, fails verification")
    func binding() throws {
        for contentKey in [nil, NamespaceKeys(master: EncryptionTests.key.symmetricKey).content] {
            let codec = EntryFileCodec(contentKey: contentKey)
            let file = try codec.encodeMetadata(entry(Fixtures.response("https://example.com/a"), body: [1, 2, 3]), body: BodyID(1))
            let body = try codec.encodeBody([1, 2, 3], storageKey: Self.key, id: BodyID(1))
            // The name is bound in: a checksum over it (plain), or the AEAD's associated data (sealed).
            let expected: EntryFileError = contentKey == nil ? .checksumMismatch : .authenticationFailed
            let otherKey = StorageKey([UInt8](repeating: 8, count: 32))
            #expect(throws: expected) { try codec.decodeMetadata(file, storageKey: otherKey) }
            #expect(throws: expected) { try codec.decodeBody(body, storageKey: otherKey, id: BodyID(1), count: 3) }
            // A body file is bound to its body id: the body of another version never verifies.
            #expect(throws: expected) { try codec.decodeBody(body, storageKey: Self.key, id: BodyID(2), count: 3) }
            #expect(try codec.decodeBody(body, storageKey: Self.key, id: BodyID(1), count: 3) == [1, 2, 3])
            #expect(throws: EntryFileError.malformed("body of 3 bytes, metadata says 4")) {
                try codec.decodeBody(body, storageKey: Self.key, id: BodyID(1), count: 4)
            }
        }
        let sealed = try EntryFileCodec(contentKey: NamespaceKeys(master: EncryptionTests.key.symmetricKey).content)
            .encodeMetadata(entry(Fixtures.response("https://example.com/a"), body: [1]), body: BodyID(1))
        let otherKey = NamespaceKeys(master: try EncryptionKey(bytes: [UInt8](repeating: 1, count: 32)).symmetricKey).content
        #expect(throws: EntryFileError.authenticationFailed) { try EntryFileCodec(contentKey: otherKey).decodeMetadata(sealed, storageKey: Self.key) }
        #expect(throws: EntryFileError.kindMismatch(fileIsEncrypted: true)) {
            try EntryFileCodec(contentKey: nil).decodeMetadata(sealed, storageKey: Self.key)
        }
    }

    @Test("a format-1 file (head and body in one, from before the split) still reads, plain and encrypted", arguments: [false, true])
    func format1(encrypted: Bool) throws {
        let codec = EntryFileCodec(contentKey: encrypted ? NamespaceKeys(master: EncryptionTests.key.symmetricKey).content : nil)
        let original = entry(Fixtures.response("https://example.com/old", headers: [.eTag: "\"1\""]), body: Fixtures.body(300))
        let file = try codec.encodeFormat1(original)
        #expect(Array(file.prefix(4)) == [0x43, 0x53, 0x45, 0x01])
        let decoded = try codec.decode(metadata: file, storageKey: Self.key, expectedKey: nil) { (_: BodyID) throws(EntryFileError) -> [UInt8] in
            throw EntryFileError.malformed("a format-1 file has no body file")
        }
        #expect(decoded.stored == original.stored)
        #expect(decoded.body == original.body)
        #expect(decoded.bodyID == nil)
        #expect(decoded.freshUntil == Fixtures.epoch.addingTimeInterval(60))
    }

    @Test("file names: metadata is 64 hex digits, a body adds a dot and 16; anything else is not the store's")
    func fileNames() {
        let key = StorageKey((0..<32).map { UInt8($0 * 3) })
        let body = BodyID(0x00ab_cdef_0123_4567)
        #expect(body.hex == "00abcdef01234567")
        #expect(EntryFileName(key.hex) == .metadata(key))
        #expect(EntryFileName(key.hex + "." + body.hex) == .body(key, body))
        #expect(EntryFileName.body(key, body).name == key.hex + "." + body.hex)
        for name in [key.hex + ".", key.hex + ".00ABCDEF01234567", key.hex + ".abc", key.hex + "." + body.hex + ".tmp", "x." + body.hex] {
            #expect(EntryFileName(name) == nil, "\(name)")
        }
        #expect(BodyID(session: 7, counter: 1) != BodyID(session: 7, counter: 2))
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
        let info = EntryInfo(Fixtures.response("https://example.com/a", headers: [.eTag: "\"1\"", .age: "30"]), tags: [])
        #expect(try EntryInfo(decoding: info.encoded()) == info)
        #expect(info.encoded().first == 1, "without tags, the version-1 form older stores read")
        let tagged = EntryInfo(Fixtures.response("https://example.com/a"), tags: ["product-42", "sale"])
        #expect(try EntryInfo(decoding: tagged.encoded()) == tagged)
        #expect(try EntryInfo(decoding: tagged.encoded()).tags == ["product-42", "sale"])
        #expect(info.initialAge == 30)
        let truncated = #expect(throws: BinaryReader.Failure.self) { try EntryInfo(decoding: Array(info.encoded().prefix(10))) }
        #expect(truncated?.description.isEmpty == false, "the failure says what is wrong")
    }
}
