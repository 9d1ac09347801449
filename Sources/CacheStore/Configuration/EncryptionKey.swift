import Crypto
import Foundation

/// The key an app supplies to encrypt a namespace at rest: 32 bytes for AES-256-GCM, from
/// which the store derives separate subkeys for file names, entry files and the index.
///
/// ```swift
/// let key = try EncryptionKey(contentsOfFile: "/etc/myapp/cache.key")
/// let userData = Namespace(name: "user", match: .prefix("https://api.example.com/me/"),
///                          timeToLive: 300, encryptionKey: key)
/// ```
public struct EncryptionKey: Sendable {
    private let storage: SendableKey
    var symmetricKey: SymmetricKey { storage.key }

    /// A key from 32 raw bytes.
    /// - Throws: ``CacheStoreError/invalidKeyLength(source:length:)`` for any other length.
    public init(bytes: some Collection<UInt8>) throws(CacheStoreError) {
        guard bytes.count == 32 else { throw .invalidKeyLength(source: "the given bytes", length: bytes.count) }
        storage = SendableKey(SymmetricKey(data: Array(bytes)))
    }

    /// A key read from a file holding 32 raw bytes, or the same as 64 hex digits or base64
    /// (surrounding white space ignored).
    /// - Throws: ``CacheStoreError/keyFileMissing(path:)``,
    ///   ``CacheStoreError/keyFileUnreadable(path:reason:)`` or
    ///   ``CacheStoreError/invalidKeyLength(source:length:)``.
    public init(contentsOfFile path: String) throws(CacheStoreError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .keyFileMissing(path: path) }
        let contents: [UInt8]
        do {
            contents = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .keyFileUnreadable(path: path, reason: "\(error.localizedDescription)")
        }
        guard let bytes = Self.decodeKeyFile(contents) else {
            throw .invalidKeyLength(source: path, length: contents.count)
        }
        storage = SendableKey(SymmetricKey(data: bytes))
    }

    /// A new random key. Keep it (``bytes``) somewhere safe: without it the cache is unreadable.
    public static func random() -> EncryptionKey {
        EncryptionKey(symmetricKey: SymmetricKey(size: .bits256))
    }

    /// The 32 key bytes.
    public var bytes: [UInt8] { symmetricKey.withUnsafeBytes { Array($0) } }

    private init(symmetricKey: SymmetricKey) {
        storage = SendableKey(symmetricKey)
    }

    /// Raw 32 bytes, 64 hex digits, or base64 of 32 bytes; `nil` otherwise.
    static func decodeKeyFile(_ contents: [UInt8]) -> [UInt8]? {
        if contents.count == 32 { return contents }
        guard let text = String(validating: contents, as: UTF8.self)?.trimmingCharacters(in: .whitespacesAndNewlines)
        else { return nil }
        if text.utf8.count == 64, let bytes = hexBytes(text) { return bytes }
        if let data = Data(base64Encoded: text), data.count == 32 { return Array(data) }
        return nil
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
