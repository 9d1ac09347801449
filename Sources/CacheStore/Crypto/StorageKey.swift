import Foundation

/// A 32-byte digest held as four words: it names an entry's file (its hex form is the file
/// name) and keys both tiers' in-memory indexes, where hashing four words is cheaper than
/// hashing a URI.
struct StorageKey: Hashable, Sendable, CustomStringConvertible {
    let w0: UInt64
    let w1: UInt64
    let w2: UInt64
    let w3: UInt64

    /// The key made of the first 32 bytes of a digest or MAC.
    init(_ bytes: some ContiguousBytes) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        bytes.withUnsafeBytes { raw in
            precondition(raw.count >= 32, "a storage key needs 32 bytes")
            words = (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian,
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian,
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).bigEndian,
                raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self).bigEndian
            )
        }
        (w0, w1, w2, w3) = words
    }

    /// The key a 64-character lower-case hex file name stands for; `nil` for any other name.
    init?(hex: String) {
        var hex = hex
        guard let words = hex.withUTF8({ utf8 -> (UInt64, UInt64, UInt64, UInt64)? in
            guard utf8.count == 64 else { return nil }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            for index in 0..<64 {
                guard let nibble = Self.nibble(utf8[index]) else { return nil }
                let digit = UInt64(nibble)
                switch index / 16 {
                case 0: words.0 = words.0 << 4 | digit
                case 1: words.1 = words.1 << 4 | digit
                case 2: words.2 = words.2 << 4 | digit
                default: words.3 = words.3 << 4 | digit
                }
            }
            return words
        }) else { return nil }
        (w0, w1, w2, w3) = words
    }

    /// The 32 bytes, big-endian word order (as the digest produced them).
    var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for word in [w0, w1, w2, w3] {
            withUnsafeBytes(of: word.bigEndian) { result.append(contentsOf: $0) }
        }
        return result
    }

    /// 64 lower-case hex digits: the file name.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(64)
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    var description: String { hex }

    /// Hashes one word: the key is a cryptographic digest, so any 64 of its bits are already
    /// uniformly spread (equality still compares all 256). Halves the cost of the hash
    /// lookups that loading 100,000 index rows and every memory hit perform.
    func hash(into hasher: inout Hasher) {
        hasher.combine(w0)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
