import Crypto
import Foundation

/// The three subkeys one encryption key yields, derived with HKDF-SHA256 (RFC 5869) so that
/// no key is used for two jobs: HMAC file naming, AES-GCM entry files, AES-GCM index fields.
struct NamespaceKeys: Sendable {
    /// HMAC-SHA256 key for file names and primary-key digests.
    let naming: SendableKey
    /// AES-256-GCM key for entry files.
    let content: SendableKey
    /// AES-256-GCM key for the index's entry descriptions and its key check.
    let index: SendableKey

    private static let salt = Array("CacheScope CacheStore v1".utf8)

    init(master: SymmetricKey) {
        naming = Self.derive(master, "file names")
        content = Self.derive(master, "entry files")
        index = Self.derive(master, "index")
    }

    private static func derive(_ master: SymmetricKey, _ purpose: String) -> SendableKey {
        SendableKey(HKDF<SHA256>.deriveKey(inputKeyMaterial: master, salt: salt, info: Array(purpose.utf8), outputByteCount: 32))
    }
}
