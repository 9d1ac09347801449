import Foundation
import NIOCore
import NIOFoundationCompat

/// Encodes values as one line of JSON each (`…}\n`), the framing of both directions.
struct JSONLines: Sendable {
    private let encoder: JSONEncoder

    init() {
        let encoder = JSONEncoder()
        // URLs and cache keys are the most common strings; `https://` reads better than `https:\/\/`.
        encoder.outputFormatting = [.withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// The value as JSON followed by a newline.
    func line(_ value: some Encodable, allocator: ByteBufferAllocator = ByteBufferAllocator()) throws -> ByteBuffer {
        var buffer = try encoder.encodeAsByteBuffer(value, allocator: allocator)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
