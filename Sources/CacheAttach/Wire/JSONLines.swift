import Foundation
import NIOCore
import NIOFoundationCompat

/// Encodes values as one line of JSON each (`…}\n`), the framing of both directions.
struct JSONLines: Sendable {
    private let encoder: JSONEncoder

    init() {
        let encoder = JSONEncoder()
        // Sorted keys make every line reproducible (diffable, and the examples in docs/attach.md
        // exact); URLs and cache keys read better as `https://` than as `https:\/\/`.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// The value as JSON followed by a newline.
    func line(_ value: some Encodable, allocator: ByteBufferAllocator = ByteBufferAllocator()) throws -> ByteBuffer {
        var buffer = try encoder.encodeAsByteBuffer(value, allocator: allocator)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
