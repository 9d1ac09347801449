import Crypto
import Foundation
import HTTPCaching

/// The bytes of one entry file, and back.
///
/// ```
/// 0   "CSE" 0x01            magic and format version
/// 4   kind                  0 = plain, 1 = AES-256-GCM
/// 5   0 0 0                 reserved
/// 8   plain:     payload, then SHA-256(bytes 0..<end-32 ‖ storage key)   (32 bytes)
///     encrypted: nonce (12) ‖ AES-GCM(payload) ‖ tag (16), associated data = bytes 0..<8 ‖ storage key
/// payload: UInt32 head length ‖ head (StoredResponseCoding, created, freshUntil, expiresAt) ‖ body
/// ```
/// The storage key (the file's own name) is inside the checksum or the associated data, so
/// a file copied under another entry's name fails verification like any other damage.
struct EntryFileCodec: Sendable {
    /// What a file holds besides the store's access counters.
    struct Decoded: Sendable {
        let stored: StoredResponse
        let body: [UInt8]
        let created: Date
        let freshUntil: Date?
        let expiresAt: Date?
    }

    private static let magic: [UInt8] = [0x43, 0x53, 0x45, 0x01]
    private static let headerSize = 8
    private static let checksumSize = 32

    private let sendableKey: SendableKey?
    private var contentKey: SymmetricKey? { sendableKey?.key }

    /// A plain codec when `contentKey` is `nil`, an AES-GCM one otherwise.
    init(contentKey: SendableKey?) {
        self.sendableKey = contentKey
    }

    // MARK: Encoding

    func encode(_ entry: CacheEntry) throws -> [UInt8] {
        var head = BinaryWriter(reservingCapacity: 512)
        StoredResponseCoding.encode(entry.stored, into: &head)
        head.write(entry.metadata.created)
        head.write(entry.metadata.freshUntil)
        head.write(entry.metadata.expiresAt)

        let header = Self.magic + [contentKey == nil ? 0 : 1, 0, 0, 0]
        var payload = BinaryWriter(reservingCapacity: 4 + head.bytes.count + entry.body.count)
        payload.write(UInt32(head.bytes.count))
        payload.append(raw: head.bytes)
        payload.append(raw: entry.body)

        if let contentKey {
            let box = try AES.GCM.seal(
                payload.bytes, using: contentKey, authenticating: header + entry.storageKey.bytes)
            guard let combined = box.combined else { throw EntryFileError.malformed("AES-GCM gave no combined box") }
            return header + Array(combined)
        }
        var file = header
        file.reserveCapacity(header.count + payload.bytes.count + Self.checksumSize)
        file.append(contentsOf: payload.bytes)
        var hasher = SHA256()
        hasher.update(data: file)
        hasher.update(data: entry.storageKey.bytes)
        file.append(contentsOf: hasher.finalize())
        return file
    }

    // MARK: Decoding

    /// Verifies and decodes a file. `expectedKey`, the key being looked up, spares
    /// re-normalising the stored URI when they match.
    func decode(_ file: [UInt8], storageKey: StorageKey, expectedKey: CacheKey? = nil) throws(EntryFileError) -> Decoded {
        guard file.count >= Self.headerSize else { throw .truncated(file.count) }
        guard Array(file[0..<4]) == Self.magic else {
            if Array(file[0..<3]) == Array(Self.magic[0..<3]) { throw .unsupportedVersion(file[3]) }
            throw .badMagic
        }
        let isEncrypted = file[4] == 1
        guard file[4] <= 1 else { throw .malformed("unknown kind \(file[4])") }
        guard isEncrypted == (contentKey != nil) else { throw .kindMismatch(fileIsEncrypted: isEncrypted) }
        if let contentKey {
            let payload: Data
            do {
                let box = try AES.GCM.SealedBox(combined: file[Self.headerSize...])
                payload = try AES.GCM.open(box, using: contentKey, authenticating: file[0..<Self.headerSize] + storageKey.bytes)
            } catch {
                throw .authenticationFailed
            }
            return try Self.decodePayload(Array(payload), range: nil, expectedKey: expectedKey)
        }
        guard file.count >= Self.headerSize + 4 + Self.checksumSize else { throw .truncated(file.count) }
        let end = file.count - Self.checksumSize
        var hasher = SHA256()
        file.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
        hasher.update(data: storageKey.bytes)
        guard hasher.finalize().elementsEqual(file[end...]) else { throw .checksumMismatch }
        return try Self.decodePayload(file, range: Self.headerSize..<end, expectedKey: expectedKey)
    }

    private static func decodePayload(_ bytes: [UInt8], range: Range<Int>?, expectedKey: CacheKey?) throws(EntryFileError) -> Decoded {
        let result: Result<Decoded, EntryFileError> = bytes.withUnsafeBytes { whole in
            let payload = range.map { UnsafeRawBufferPointer(rebasing: whole[$0]) } ?? whole
            do throws(BinaryReader.Failure) {
                return .success(try parsePayload(payload, expectedKey: expectedKey))
            } catch {
                return .failure(.malformed(error.description))
            }
        }
        return try result.get()
    }

    private static func parsePayload(_ payload: UnsafeRawBufferPointer, expectedKey: CacheKey?) throws(BinaryReader.Failure) -> Decoded {
        do {
            var reader = BinaryReader(payload)
            let headLength = Int(try reader.readUInt32())
            guard headLength <= reader.remaining else { throw BinaryReader.Failure(description: "head longer than file") }
            let bodyStart = reader.offset + headLength
            let stored = try StoredResponseCoding.decode(&reader, expectedKey: expectedKey)
            let created = try reader.readDate()
            let freshUntil = try reader.readOptionalDate()
            let expiresAt = try reader.readOptionalDate()
            guard reader.offset == bodyStart else { throw BinaryReader.Failure(description: "head length mismatch") }
            let body = Array(UnsafeRawBufferPointer(rebasing: payload[bodyStart...]))
            return Decoded(stored: stored, body: body, created: created, freshUntil: freshUntil, expiresAt: expiresAt)
        }
    }
}

/// Why an entry file could not be read back; every case means the entry is corrupt.
enum EntryFileError: Error, CustomStringConvertible, Equatable {
    case truncated(Int)
    case badMagic
    case unsupportedVersion(UInt8)
    case kindMismatch(fileIsEncrypted: Bool)
    case checksumMismatch
    case authenticationFailed
    case malformed(String)

    var description: String {
        switch self {
        case .truncated(let size): return "truncated (\(size) bytes)"
        case .badMagic: return "not an entry file"
        case .unsupportedVersion(let version): return "entry file format \(version) is not supported"
        case .kindMismatch(let encrypted):
            return encrypted ? "file is encrypted but the namespace is not" : "file is not encrypted but the namespace is"
        case .checksumMismatch: return "checksum mismatch"
        case .authenticationFailed: return "AES-GCM authentication failed (tampered, damaged or another key)"
        case .malformed(let detail): return "malformed: \(detail)"
        }
    }
}
