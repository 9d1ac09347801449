import Foundation
public import HTTPCaching
import HTTPTypes

/// One stored variant: the response the caching rules read, its body, and the store's
/// bookkeeping.
///
/// The response and body are immutable and shared: a `CacheEntry` holds them through one
/// reference, so handing an entry out of a lookup costs a couple of reference counts, not a
/// copy of every header field (a memory hit must stay under a microsecond).
///
/// The body is `[UInt8]`: a plain value with contiguous storage that the store reads into and
/// writes from without copies or bridging, with no Foundation type in the model; turning it
/// into `Data` or a `ByteBuffer` for the caller costs one copy when needed.
public struct CacheEntry: Sendable, Equatable {
    /// The immutable part, shared by every copy of an entry.
    @usableFromInline
    final class Content: Sendable {
        @usableFromInline let stored: StoredResponse
        @usableFromInline let body: [UInt8]
        let storageKey: StorageKey

        init(stored: StoredResponse, body: [UInt8], storageKey: StorageKey) {
            self.stored = stored
            self.body = body
            self.storageKey = storageKey
        }
    }

    @usableFromInline
    let content: Content
    /// Store bookkeeping: times, hits, size, tier, freshness and retention ends.
    public internal(set) var metadata: EntryMetadata
    /// The memory-tier slot it was read from: a hint for ``ResponseStore/recordAccess(_:now:)``.
    var memorySlot: Int32 = -1
    /// The id of the body file it was stored with or read from (`nil`: not on disk, or a
    /// format-1 file). A freshen that keeps this body rewrites only the entry's metadata.
    var bodyID: BodyID?

    init(stored: StoredResponse, body: [UInt8], metadata: EntryMetadata, storageKey: StorageKey) {
        content = Content(stored: stored, body: body, storageKey: storageKey)
        self.metadata = metadata
    }

    /// Status, header fields, request and response times, and the Vary-selected request
    /// values (``StoredResponse/varyKey``); validators are ``StoredResponse/entityTag`` and
    /// ``StoredResponse/lastModified``.
    @inlinable
    public var stored: StoredResponse { content.stored }

    /// The response body.
    @inlinable
    public var body: [UInt8] { content.body }

    /// The digest that names the entry's file and keys both tiers.
    var storageKey: StorageKey { content.storageKey }

    /// The entry's identity.
    public var id: EntryID { metadata.id }

    public static func == (lhs: CacheEntry, rhs: CacheEntry) -> Bool {
        lhs.metadata == rhs.metadata
            && (lhs.content === rhs.content || (lhs.stored == rhs.stored && lhs.body == rhs.body))
    }

    /// The size the store accounts for a response: the body, the status line, each header
    /// field as `name: value\r\n`, and the URI.
    public static func size(of stored: StoredResponse, body: [UInt8]) -> Int {
        body.count + headerSize(key: stored.key, response: stored.response)
    }

    /// The part of ``size(of:body:)`` that is not the body: the status line, each header field
    /// as `name: value\r\n`, and the URI.
    static func headerSize(key: CacheKey, response: HTTPResponse) -> Int {
        var size = key.uri.utf8.count + key.method.utf8.count + 16
        size += response.status.reasonPhrase.utf8.count
        for field in response.headerFields {
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        return size
    }
}
