import Crypto
import Foundation

/// Seals what the index stores about entries when the namespace is encrypted (AES-256-GCM
/// under the index subkey, the row's storage key as associated data so a blob cannot be
/// moved to another row), and checks the key with a sealed constant in `meta`.
/// A plain namespace passes bytes through.
struct IndexSealer: Sendable {
    private let sendableKey: SendableKey?
    private var key: SymmetricKey? { sendableKey?.key }
    private static let keyCheckPlaintext = Array("CacheScope CacheStore key check v1".utf8)
    private static let keyCheckContext = Array("key check".utf8)

    init(key: SendableKey?) {
        self.sendableKey = key
    }

    var isEncrypted: Bool { key != nil }

    func seal(_ info: [UInt8], for storageKey: StorageKey) throws -> [UInt8] {
        guard let key else { return info }
        guard let combined = try AES.GCM.seal(info, using: key, authenticating: storageKey.bytes).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return Array(combined)
    }

    func open(_ blob: [UInt8], for storageKey: StorageKey) throws -> [UInt8] {
        guard let key else { return blob }
        let box = try AES.GCM.SealedBox(combined: blob)
        return Array(try AES.GCM.open(box, using: key, authenticating: storageKey.bytes))
    }

    /// A fresh key check to store in `meta`.
    func makeKeyCheck() throws -> [UInt8] {
        guard let key else { return [] }
        guard let combined = try AES.GCM.seal(Self.keyCheckPlaintext, using: key, authenticating: Self.keyCheckContext).combined
        else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    /// Whether a stored key check opens with this key.
    func verifyKeyCheck(_ blob: [UInt8]) -> Bool {
        guard let key else { return false }
        guard let box = try? AES.GCM.SealedBox(combined: blob),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: Self.keyCheckContext)
        else { return false }
        return Array(plaintext) == Self.keyCheckPlaintext
    }
}
