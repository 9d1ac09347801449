import Crypto
package import Foundation
package import HTTPCaching

/// One entry sealed for a tier outside this store — the shared tier keeps it in PostgreSQL —
/// as the disk tier would seal its two files: metadata apart from the body, so a 304 rewrites
/// the metadata alone.
package struct SealedEntry: Sendable {
    /// The storage key: the digest (HMAC in an encrypted namespace) of method, URI and Vary signature.
    package let id: [UInt8]
    /// The digest of the primary key, shared by every variant of it.
    package let keyDigest: [UInt8]
    /// The sealed head: the stored response, its times, and the id and length of its body.
    package let metadata: [UInt8]
    /// The sealed body, bound to ``id`` and ``bodyID``; empty when only the metadata was sealed.
    package let body: [UInt8]
    /// The body's id: the first 8 bytes of its SHA-256, so a freshen can name the body it keeps.
    package let bodyID: Int64
    /// The size the store accounts for the entry (``CacheEntry/size(of:body:)``).
    package let size: Int
}

/// A stored response read back from a ``SealedEntry``'s parts, verified.
package struct OpenedEntry: Sendable {
    /// The response the caching rules read.
    package let stored: StoredResponse
    /// The body.
    package let body: [UInt8]
    /// When it was first stored.
    package let created: Date
    /// The end of its freshness lifetime, as the storing client computed it.
    package let freshUntil: Date?
    /// The end of its retention, if any.
    package let expiresAt: Date?

    /// Its head, as a purge by prefix or filter looks at it.
    package var head: OpenedHead { OpenedHead(stored: stored, created: created, freshUntil: freshUntil, expiresAt: expiresAt) }
}

/// Seals and opens entries for another tier with the disk tier's envelope (``SealedFile``),
/// naming (``EntryNaming``) and per-namespace keys: an entry is encrypted exactly when its
/// namespace is, with the same subkeys, and plain entries carry the same checksums.
package struct SealedEntryCodec: Sendable {
    let table: NamespaceTable

    /// A codec for the namespaces (and their encryption keys) of a store configuration.
    package init(configuration: StoreConfiguration) {
        table = NamespaceTable(configuration.allNamespaces)
    }

    /// The digest every variant of `key` is found by.
    package func keyDigest(for key: CacheKey) -> [UInt8] {
        table[table.index(for: key.uri)].naming.primaryKey(for: key).bytes
    }

    /// Whether entries of `key`'s namespace are encrypted.
    package func isEncrypted(_ key: CacheKey) -> Bool {
        table[table.index(for: key.uri)].keys != nil
    }

    /// Seals a response's metadata and (unless `metadataOnly`) its body.
    package func seal(
        _ stored: StoredResponse, body: [UInt8], created: Date, freshUntil: Date?, expiresAt: Date?, metadataOnly: Bool = false
    ) throws(EntryFileError) -> SealedEntry {
        let member = table[table.index(for: stored.key.uri)]
        let id = EntryID(stored)
        let storageKey = member.naming.storageKey(for: id)
        let size = CacheEntry.size(of: stored, body: body)
        let metadata = EntryMetadata(
            id: id, created: created, lastAccess: created, accessCount: 0, size: size, tier: .memory, freshUntil: freshUntil,
            expiresAt: expiresAt)
        let entry = CacheEntry(stored: stored, body: body, metadata: metadata, storageKey: storageKey)
        let bodyID = BodyID(SHA256.hash(data: body).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let codec = EntryFileCodec(contentKey: member.keys?.content)
        return SealedEntry(
            id: storageKey.bytes, keyDigest: member.naming.primaryKey(for: stored.key).bytes,
            metadata: try codec.encodeMetadata(entry, body: bodyID),
            body: metadataOnly ? [] : try codec.encodeBody(body, storageKey: storageKey, id: bodyID),
            bodyID: Int64(bitPattern: bodyID.value), size: size)
    }

    /// Verifies and opens an entry stored under `id` for `key`: the metadata must be bound to
    /// `id`, the body to `id` and the body id the metadata names, and the response must be
    /// one of `key`'s. Anything else — damage, another key, a body of another response —
    /// throws.
    package func open(id: [UInt8], metadata: [UInt8], body: [UInt8], for key: CacheKey) throws(EntryFileError) -> OpenedEntry {
        guard id.count == 32 else { throw .malformed("storage key of \(id.count) bytes") }
        let storageKey = StorageKey(id)
        let codec = EntryFileCodec(contentKey: table[table.index(for: key.uri)].keys?.content)
        guard case .separate(let head, let bodyID, let count) = try codec.decodeMetadata(metadata, storageKey: storageKey, expectedKey: key)
        else { throw .malformed("a format-1 entry") }
        guard head.stored.key == key else { throw .malformed("entry of another key") }
        let opened = try codec.decodeBody(body, storageKey: storageKey, id: bodyID, count: count)
        return OpenedEntry(
            stored: head.stored, body: opened, created: head.created, freshUntil: head.freshUntil, expiresAt: head.expiresAt)
    }
}
