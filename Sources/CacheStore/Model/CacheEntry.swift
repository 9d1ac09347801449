import Foundation
import HTTPCaching
import HTTPTypes

/// One stored variant: the response the caching rules read, its body, and the store's
/// bookkeeping.
///
/// The body is `[UInt8]`: a plain value with contiguous storage that the store reads into and
/// writes from without copies or bridging, with no Foundation type in the model; turning it
/// into `Data` or a `ByteBuffer` for the caller costs one copy when needed.
public struct CacheEntry: Sendable, Equatable {
    /// Status, header fields, request and response times, and the Vary-selected request
    /// values (``StoredResponse/varyKey``); validators are ``StoredResponse/entityTag`` and
    /// ``StoredResponse/lastModified``.
    public let stored: StoredResponse
    /// The response body.
    public let body: [UInt8]
    /// Store bookkeeping: times, hits, size, tier, freshness and retention ends.
    public internal(set) var metadata: EntryMetadata
    /// The digest that names the entry's file and keys both tiers.
    let storageKey: StorageKey

    init(stored: StoredResponse, body: [UInt8], metadata: EntryMetadata, storageKey: StorageKey) {
        self.stored = stored
        self.body = body
        self.metadata = metadata
        self.storageKey = storageKey
    }

    /// The entry's identity.
    public var id: EntryID { metadata.id }

    /// The size the store accounts for a response: the body, the status line, each header
    /// field as `name: value\r\n`, and the URI.
    public static func size(of stored: StoredResponse, body: [UInt8]) -> Int {
        var size = body.count + stored.key.uri.utf8.count + stored.key.method.utf8.count + 16
        size += stored.response.status.reasonPhrase.utf8.count
        for field in stored.response.headerFields {
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        return size
    }
}
