/// Hands out one shared `String` per distinct text, so a log that names the same URLs, cache
/// keys, reasons and header values hundreds of thousands of times keeps each text once.
///
/// Strings of up to 15 UTF-8 bytes are stored inline by Swift and need no sharing. Longer
/// ones are looked up by a 64-bit hash and compared byte for byte before being shared.
struct StringInterner {
    private var table: [UInt64: String] = [:]

    /// The string for valid UTF-8 `bytes`, shared with earlier equal ones.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        let hash = Self.hash(bytes)
        if let existing = table[hash] {
            var candidate = existing
            let equal = candidate.withUTF8 { stored in
                stored.count == bytes.count && memoryEqual(stored, bytes)
            }
            if equal { return existing }
            return String(decoding: bytes, as: UTF8.self)  // a hash collision: do not share
        }
        let string = String(decoding: bytes, as: UTF8.self)
        table[hash] = string
        return string
    }

    /// Shares an already-built string (decoded from escapes) the same way.
    mutating func string(_ string: String) -> String {
        var string = string
        return string.withUTF8 { self.string($0) }
    }

    private func memoryEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return lhs.count == rhs.count }
        var index = 0
        let count = lhs.count
        while index + 8 <= count {
            let a = UnsafeRawPointer(left + index).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(right + index).loadUnaligned(as: UInt64.self)
            if a != b { return false }
            index += 8
        }
        while index < count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    /// A fast 64-bit hash, eight bytes at a time (not for adversarial input: collisions only
    /// cost sharing, never correctness).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(base[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return hash ^ (hash >> 32)
    }
}
