import Crypto
import HTTPCaching

/// Turns identities into ``StorageKey``s: SHA-256 for a plain namespace, HMAC-SHA256 under
/// the naming subkey for an encrypted one — a plain hash of a URL could be reversed with a
/// dictionary of URLs, a keyed one cannot.
///
/// Inputs are domain-separated (`entry` / `key`) and NUL-delimited, so the digest of one
/// identity never equals that of another or of a primary key.
struct EntryNaming: Sendable {
    private let key: SendableKey?

    /// Plain (SHA-256) naming when `key` is `nil`.
    init(key: SendableKey?) {
        self.key = key
    }

    /// The file name digest of one variant.
    func storageKey(for id: EntryID) -> StorageKey {
        digest(["entry", id.key.method, id.key.uri, id.varySignature])
    }

    /// The digest of a primary key: finds every variant of the key in an index whose URIs
    /// are not stored in the clear.
    func primaryKey(for key: CacheKey) -> StorageKey {
        digest(["key", key.method, key.uri])
    }

    /// The digest of a tag (``SurrogateKeys``): how the index's `tags` table and the shared
    /// tier name it without storing it in the clear in an encrypted namespace.
    func tagKey(for tag: String) -> StorageKey {
        digest(["tag", tag])
    }

    private func digest(_ parts: [String]) -> StorageKey {
        var input: [UInt8] = Array("v1".utf8)
        for part in parts {
            input.append(0)
            input.append(contentsOf: part.utf8)
        }
        if let key {
            return StorageKey(HMAC<SHA256>.authenticationCode(for: input, using: key.key))
        }
        return StorageKey(SHA256.hash(data: input))
    }
}
