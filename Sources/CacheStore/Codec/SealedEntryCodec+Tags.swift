package import Foundation
package import HTTPCaching

/// A sealed entry's head read back without knowing its key: what a purge by URL prefix or by
/// filter looks at in another tier.
package struct OpenedHead: Sendable {
    /// The response the metadata holds.
    package let stored: StoredResponse
    /// When it was first stored.
    package let created: Date
    /// The end of its freshness lifetime.
    package let freshUntil: Date?
    /// The end of its retention, if any.
    package let expiresAt: Date?
}

extension SealedEntryCodec {
    /// The digests of `tag` in every namespace (keyed HMACs in encrypted ones): an entry's
    /// tag rows use its own namespace's, and a purge looks for any of them.
    package func tagDigests(for tag: String) -> [[UInt8]] {
        var digests: [[UInt8]] = []
        for index in table.members.indices {
            let digest = table[index].naming.tagKey(for: tag).bytes
            if !digests.contains(digest) { digests.append(digest) }
        }
        return digests
    }

    /// The digests of `tags` in `key`'s namespace.
    package func tagDigests(for tags: [String], of key: CacheKey) -> [[UInt8]] {
        let naming = table[table.index(for: key.uri)].naming
        return tags.map { naming.tagKey(for: $0).bytes }
    }

    /// Opens the metadata stored under `id` whatever its key: tried with each namespace's
    /// key, and kept only when the response belongs to that namespace and `id` is its
    /// storage key. `nil` for damage, a foreign key, or anything else that does not verify.
    package func openHead(id: [UInt8], metadata: [UInt8]) -> OpenedHead? {
        guard id.count == 32 else { return nil }
        let storageKey = StorageKey(id)
        for index in table.members.indices {
            let member = table[index]
            let codec = EntryFileCodec(contentKey: member.keys?.content)
            guard case .separate(let head, _, _)? = try? codec.decodeMetadata(metadata, storageKey: storageKey) else { continue }
            guard table.index(for: head.stored.key.uri) == index, member.naming.storageKey(for: EntryID(head.stored)) == storageKey
            else { continue }
            return OpenedHead(stored: head.stored, created: head.created, freshUntil: head.freshUntil, expiresAt: head.expiresAt)
        }
        return nil
    }
}
