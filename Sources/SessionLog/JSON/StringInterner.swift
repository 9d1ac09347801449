import CacheEvents
/// Hands out one shared `String` per distinct text, so a log that names the same URLs, cache
/// keys, reasons and header values hundreds of thousands of times keeps each text once.
///
/// Strings of up to 15 UTF-8 bytes are stored inline by Swift and need no sharing. Longer
/// ones are found through an open-addressing table keyed by a 64-bit hash of their bytes
/// (no `Hasher` round: the key already is a hash) and compared byte for byte before being
/// shared.
struct StringInterner {
    private var hashes: [UInt64] = []
    private var strings: [String?] = []
    private var count = 0

    /// The string for valid UTF-8 `bytes`, shared with earlier equal ones.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        if count * 2 >= hashes.count { grow() }
        let hash = Self.hash(bytes)
        let mask = hashes.count - 1
        var cell = Int(truncatingIfNeeded: hash) & mask
        while var existing = strings[cell] {
            if hashes[cell] == hash, existing.withUTF8({ Self.equal($0, bytes) }) { return existing }
            cell = (cell + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        hashes[cell] = hash
        strings[cell] = string
        count += 1
        return string
    }

    /// Shares an already-built string (decoded from escapes) the same way.
    mutating func string(_ string: String) -> String {
        var string = string
        return string.withUTF8 { self.string($0) }
    }

    private mutating func grow() {
        let old = zip(hashes, strings)
        let capacity = max(1024, hashes.count * 2)
        hashes = [UInt64](repeating: 0, count: capacity)
        strings = [String?](repeating: nil, count: capacity)
        for (hash, string) in old {
            guard let string else { continue }
            var cell = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while strings[cell] != nil { cell = (cell + 1) & (capacity - 1) }
            hashes[cell] = hash
            strings[cell] = string
        }
    }

    /// Whether two byte runs are equal, eight bytes at a time.
    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        var index = 0
        let count = lhs.count
        while index + 8 <= count {
            if UnsafeRawPointer(left + index).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(right + index).loadUnaligned(as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    /// A fast 64-bit hash, eight bytes at a time (not for adversarial input: collisions only
    /// cost a comparison, never correctness).
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
        hash ^= hash >> 32
        return hash &* 0x9E37_79B9_7F4A_7C15
    }
}
