import Foundation
import HTTPCaching

/// The bytes of an entry's two files, and back: its metadata file (`<storage key>`) and its
/// body file (`<storage key>.<body id>`), both in the ``SealedFile`` envelope.
///
/// ```
/// metadata  "CSE" 0x02, binding = storage key
///           payload: head (StoredResponseCoding, created, freshUntil, expiresAt) ‖ body id (8) ‖ body length (8)
/// body      "CSB" 0x01, binding = storage key ‖ body id
///           payload: the body
/// ```
/// A 304 freshen rewrites the metadata file only. The metadata names its body by id and
/// length, and the body file is bound to that id, so a metadata file and a body file of
/// different responses never verify together.
///
/// Format 1 (`"CSE" 0x01`, before headers and body were split: `UInt32 head length ‖ head ‖
/// body` in one file) is still read — ``decodeMetadata(_:storageKey:expectedKey:)`` returns
/// it as ``Metadata/whole(_:body:)`` — and replaced by the two files the next time the
/// entry is stored or freshened.
struct EntryFileCodec: Sendable {
    /// What a metadata file holds besides the store's access counters.
    struct Head: Sendable {
        let stored: StoredResponse
        let created: Date
        let freshUntil: Date?
        let expiresAt: Date?
    }

    /// A verified metadata file.
    enum Metadata: Sendable {
        /// Format 2: the head, and the body file it goes with.
        case separate(Head, body: BodyID, bodyCount: Int)
        /// Format 1: head and body in one file.
        case whole(Head, body: [UInt8])
    }

    /// A whole entry as read from disk: metadata and body verified together.
    struct Decoded: Sendable {
        let head: Head
        let body: [UInt8]
        /// `nil` for a format-1 file (no separate body).
        let bodyID: BodyID?

        var stored: StoredResponse { head.stored }
        var created: Date { head.created }
        var freshUntil: Date? { head.freshUntil }
        var expiresAt: Date? { head.expiresAt }
    }

    static let metadataMagic: [UInt8] = [0x43, 0x53, 0x45, 0x02]
    static let format1Magic: [UInt8] = [0x43, 0x53, 0x45, 0x01]
    static let bodyMagic: [UInt8] = [0x43, 0x53, 0x42, 0x01]

    let envelope: SealedFile

    /// A plain codec when `contentKey` is `nil`, an AES-GCM one otherwise. Without
    /// `verifiesChecksums` a plain file's checksum is neither computed (it is left zero) nor
    /// checked: for files that never leave memory (``DiskMedium/simulated``).
    init(contentKey: SendableKey?, verifiesChecksums: Bool = true) {
        envelope = SealedFile(contentKey: contentKey, verifiesChecksums: verifiesChecksums)
    }

    // MARK: Encoding

    /// The metadata file of `entry`, naming body `body` (of `entry.body.count` bytes).
    func encodeMetadata(_ entry: CacheEntry, body: BodyID) throws(EntryFileError) -> [UInt8] {
        var head = Self.encodeHead(entry, reserving: 24)
        head.write(body.value)
        head.write(UInt64(entry.body.count))
        return try envelope.seal(head.bytes, magic: Self.metadataMagic, binding: entry.storageKey.bytes)
    }

    /// The body file of body `id` of the entry `storageKey` names.
    func encodeBody(_ body: [UInt8], storageKey: StorageKey, id: BodyID) throws(EntryFileError) -> [UInt8] {
        try envelope.seal(body, magic: Self.bodyMagic, binding: storageKey.bytes + id.bytes)
    }

    /// A format-1 file (head and body in one), as stores before the split wrote them; kept
    /// so tests can check that such files are still read.
    func encodeFormat1(_ entry: CacheEntry) throws(EntryFileError) -> [UInt8] {
        let head = Self.encodeHead(entry, reserving: 0)
        var payload = BinaryWriter(reservingCapacity: 4 + head.bytes.count + entry.body.count)
        payload.write(UInt32(head.bytes.count))
        payload.append(raw: head.bytes)
        payload.append(raw: entry.body)
        return try envelope.seal(payload.bytes, magic: Self.format1Magic, binding: entry.storageKey.bytes)
    }

    private static func encodeHead(_ entry: CacheEntry, reserving extra: Int) -> BinaryWriter {
        var head = BinaryWriter(reservingCapacity: 512 + extra)
        StoredResponseCoding.encode(entry.stored, into: &head)
        head.write(entry.metadata.created)
        head.write(entry.metadata.freshUntil)
        head.write(entry.metadata.expiresAt)
        return head
    }

    // MARK: Decoding

    /// Verifies and decodes a metadata file (format 2, or a whole format-1 file).
    /// `expectedKey`, the key being looked up, spares re-normalising the stored URI when they match.
    func decodeMetadata(_ file: [UInt8], storageKey: StorageKey, expectedKey: CacheKey? = nil) throws(EntryFileError) -> Metadata {
        let isFormat1 = SealedFile.version(of: file, family: Self.metadataMagic) == 1
        let magic = isFormat1 ? Self.format1Magic : Self.metadataMagic
        let payload = try envelope.open(file, magic: magic, binding: storageKey.bytes)
        return try Self.withPayload(file, payload) { bytes throws(BinaryReader.Failure) in
            var reader = BinaryReader(bytes)
            if isFormat1 {
                let headLength = Int(try reader.readUInt32())
                guard headLength <= reader.remaining else { throw BinaryReader.Failure(description: "head longer than file") }
                let bodyStart = reader.offset + headLength
                let head = try Self.decodeHead(&reader, expectedKey: expectedKey)
                guard reader.offset == bodyStart else { throw BinaryReader.Failure(description: "head length mismatch") }
                return .whole(head, body: Array(UnsafeRawBufferPointer(rebasing: bytes[bodyStart...])))
            }
            let head = try Self.decodeHead(&reader, expectedKey: expectedKey)
            let body = BodyID(try reader.readUInt64())
            let count = try reader.readUInt64()
            guard reader.remaining == 0 else { throw BinaryReader.Failure(description: "\(reader.remaining) bytes after the head") }
            guard count <= UInt64(Int.max) else { throw BinaryReader.Failure(description: "body length \(count)") }
            return .separate(head, body: body, bodyCount: Int(count))
        }
    }

    /// Verifies a body file against the id and length its metadata gave, and returns the body.
    func decodeBody(_ file: [UInt8], storageKey: StorageKey, id: BodyID, count: Int) throws(EntryFileError) -> [UInt8] {
        let body: [UInt8]
        switch try envelope.open(file, magic: Self.bodyMagic, binding: storageKey.bytes + id.bytes) {
        case .inFile(let range): body = Array(file[range])
        case .decrypted(let bytes): body = bytes
        }
        guard body.count == count else { throw .malformed("body of \(body.count) bytes, metadata says \(count)") }
        return body
    }

    /// Decodes a whole entry from its metadata file and (for format 2) its body file, which
    /// `readBody` reads given the body id.
    func decode<Failure: Error>(
        metadata file: [UInt8], storageKey: StorageKey, expectedKey: CacheKey?,
        readBody: (BodyID) throws(Failure) -> [UInt8]
    ) throws(EntryReadFailure<Failure>) -> Decoded {
        let metadata: Metadata
        do {
            metadata = try decodeMetadata(file, storageKey: storageKey, expectedKey: expectedKey)
        } catch {
            throw .corrupt(error)
        }
        switch metadata {
        case .whole(let head, let body):
            return Decoded(head: head, body: body, bodyID: nil)
        case .separate(let head, let id, let count):
            let bodyFile: [UInt8]
            do {
                bodyFile = try readBody(id)
            } catch {
                throw .body(error)
            }
            do {
                return Decoded(head: head, body: try decodeBody(bodyFile, storageKey: storageKey, id: id, count: count), bodyID: id)
            } catch {
                throw .corrupt(error)
            }
        }
    }

    private static func decodeHead(_ reader: inout BinaryReader, expectedKey: CacheKey?) throws(BinaryReader.Failure) -> Head {
        let stored = try StoredResponseCoding.decode(&reader, expectedKey: expectedKey)
        return Head(
            stored: stored, created: try reader.readDate(), freshUntil: try reader.readOptionalDate(),
            expiresAt: try reader.readOptionalDate())
    }

    private static func withPayload<T>(
        _ file: [UInt8], _ payload: SealedFile.Payload, _ body: (UnsafeRawBufferPointer) throws(BinaryReader.Failure) -> T
    ) throws(EntryFileError) -> T {
        func run(_ bytes: [UInt8], _ range: Range<Int>?) -> Result<T, EntryFileError> {
            bytes.withUnsafeBytes { whole in
                let part = range.map { UnsafeRawBufferPointer(rebasing: whole[$0]) } ?? whole
                do throws(BinaryReader.Failure) {
                    return .success(try body(part))
                } catch {
                    return .failure(.malformed(error.description))
                }
            }
        }
        switch payload {
        case .inFile(let range): return try run(file, range).get()
        case .decrypted(let bytes): return try run(bytes, nil).get()
        }
    }
}

/// Why reading a whole entry failed: damage (the entry is corrupt), or reading its body file
/// failed with the reader's own error (a missing file, or an I/O error to retry elsewhere).
enum EntryReadFailure<Failure: Error>: Error {
    case corrupt(EntryFileError)
    case body(Failure)
}
