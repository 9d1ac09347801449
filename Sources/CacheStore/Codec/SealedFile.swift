import Crypto
import Foundation

/// The envelope every file under `entries/` shares: an 8-byte header, then the payload
/// either checksummed or sealed, bound to the file's identity.
///
/// ```
/// 0   magic (3) ‖ version (1)
/// 4   kind                   0 = plain, 1 = AES-256-GCM
/// 5   0 0 0                  reserved
/// 8   plain:     payload ‖ SHA-256(bytes 0..<end-32 ‖ binding)           (32 bytes)
///     encrypted: nonce (12) ‖ AES-GCM(payload) ‖ tag (16), associated data = bytes 0..<8 ‖ binding
/// ```
/// `binding` names the file (its storage key, and for a body its body id), so a file copied
/// under another name fails verification like any other damage.
struct SealedFile: Sendable {
    static let headerSize = 8
    static let checksumSize = 32

    private let sendableKey: SendableKey?
    private var contentKey: SymmetricKey? { sendableKey?.key }
    /// Whether a plain file's checksum is computed when it is sealed and checked when it is
    /// opened (always, but for files that never leave memory: nothing can damage them, and
    /// each is a SHA-256 of the whole body).
    private let verifiesChecksums: Bool

    init(contentKey: SendableKey?, verifiesChecksums: Bool = true) {
        self.sendableKey = contentKey
        self.verifiesChecksums = verifiesChecksums
    }

    var isEncrypted: Bool { sendableKey != nil }

    /// The header for a file of this codec's kind.
    func header(magic: [UInt8]) -> [UInt8] { magic + [contentKey == nil ? 0 : 1, 0, 0, 0] }

    /// The whole file: header, then the payload checksummed or sealed.
    func seal(_ payload: [UInt8], magic: [UInt8], binding: [UInt8]) throws(EntryFileError) -> [UInt8] {
        let header = header(magic: magic)
        if let contentKey {
            do {
                let box = try AES.GCM.seal(payload, using: contentKey, authenticating: header + binding)
                guard let combined = box.combined else { throw EntryFileError.malformed("AES-GCM gave no combined box") }
                return header + Array(combined)
            } catch {
                throw .malformed("cannot seal: \(error)")
            }
        }
        var file = header
        file.reserveCapacity(header.count + payload.count + Self.checksumSize)
        file.append(contentsOf: payload)
        guard verifiesChecksums else {
            // A file that never leaves memory is never checked: its checksum is left zero
            // rather than computed (a SHA-256 of every stored body of a what-if run).
            file.append(contentsOf: repeatElement(0, count: Self.checksumSize))
            return file
        }
        var hasher = SHA256()
        hasher.update(data: file)
        hasher.update(data: binding)
        file.append(contentsOf: hasher.finalize())
        return file
    }

    /// Where a verified file's payload is: a range of the file itself (plain), or the
    /// decrypted bytes (sealed).
    enum Payload {
        case inFile(Range<Int>)
        case decrypted([UInt8])
    }

    /// Checks the header's magic, version and kind, then verifies the checksum or tag.
    func open(_ file: [UInt8], magic: [UInt8], binding: [UInt8]) throws(EntryFileError) -> Payload {
        guard file.count >= Self.headerSize else { throw .truncated(file.count) }
        guard file[0..<4].elementsEqual(magic) else {
            if file[0..<3].elementsEqual(magic[0..<3]) { throw .unsupportedVersion(file[3]) }
            throw .badMagic
        }
        guard file[4] <= 1 else { throw .malformed("unknown kind \(file[4])") }
        let fileIsEncrypted = file[4] == 1
        guard fileIsEncrypted == (contentKey != nil) else { throw .kindMismatch(fileIsEncrypted: fileIsEncrypted) }
        if let contentKey {
            do {
                let box = try AES.GCM.SealedBox(combined: file[Self.headerSize...])
                let plain = try AES.GCM.open(box, using: contentKey, authenticating: file[0..<Self.headerSize] + binding)
                return .decrypted(Array(plain))
            } catch {
                throw .authenticationFailed
            }
        }
        guard file.count >= Self.headerSize + Self.checksumSize else { throw .truncated(file.count) }
        let end = file.count - Self.checksumSize
        guard verifiesChecksums else { return .inFile(Self.headerSize..<end) }
        var hasher = SHA256()
        file.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
        hasher.update(data: binding)
        guard hasher.finalize().elementsEqual(file[end...]) else { throw .checksumMismatch }
        return .inFile(Self.headerSize..<end)
    }

    /// The format version byte of a file that starts with `magic`'s first three bytes.
    static func version(of file: [UInt8], family magic: [UInt8]) -> UInt8? {
        guard file.count >= 4, file[0..<3].elementsEqual(magic[0..<3]) else { return nil }
        return file[3]
    }
}

/// Why an entry file could not be read back; every case means the entry is corrupt.
package enum EntryFileError: Error, CustomStringConvertible, Equatable {
    case truncated(Int)
    case badMagic
    case unsupportedVersion(UInt8)
    case kindMismatch(fileIsEncrypted: Bool)
    case checksumMismatch
    case authenticationFailed
    case malformed(String)

    package var description: String {
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
