// MARK: - What arrived of a request body

/// A request body reduced to its length and an FNV-1a 64-bit digest, updated part by part as
/// it arrives: the origin keeps no body, yet can tell a client (or a proxy's test) exactly
/// what reached it.
struct ReceivedBody: Sendable, Equatable {
    /// Bytes received.
    private(set) var count = 0
    /// FNV-1a 64 of the bytes received.
    private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds the next part.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var hash = digest
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        digest = hash
        count += bytes.count
    }

    /// `1048576 bytes, FNV-1a 0123456789abcdef`.
    var summary: String {
        let hex = String(digest, radix: 16)
        return "\(count) bytes, FNV-1a \(String(repeating: "0", count: 16 - hex.count) + hex)"
    }
}
