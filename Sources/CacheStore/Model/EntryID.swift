public import HTTPCaching

/// The identity of one stored variant: the primary ``CacheKey`` plus the signature of the
/// response's ``VaryKey`` (several Vary variants of one key may be stored side by side).
///
/// On disk an entry's file is named by a digest of this identity: SHA-256, or with
/// encryption an HMAC-SHA256 under a key-derived subkey, so the name reveals nothing.
public struct EntryID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The primary key: method and normalised URI.
    public let key: CacheKey
    /// ``VaryKey/signature`` of the stored response (empty when it does not vary).
    public let varySignature: String

    /// An identity from its parts.
    public init(key: CacheKey, varySignature: String) {
        self.key = key
        self.varySignature = varySignature
    }

    /// The identity a stored response gets.
    public init(_ stored: StoredResponse) {
        self.init(key: stored.key, varySignature: stored.varyKey.signature)
    }

    /// `GET https://example.com/a` or `GET https://example.com/a [accept-language="en"]`.
    public var description: String {
        varySignature.isEmpty ? key.description : "\(key) [\(varySignature)]"
    }

    public static func < (lhs: EntryID, rhs: EntryID) -> Bool {
        (lhs.key, lhs.varySignature) < (rhs.key, rhs.varySignature)
    }
}
