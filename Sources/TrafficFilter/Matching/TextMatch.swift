import Foundation

/// How a text field is compared: `:` contains, `=` equals (both ignoring case), `~` a regular
/// expression (ignoring case). A `~` pattern without regex metacharacters is plain text and is
/// matched as a substring, without the regex engine.
enum TextMatch: Sendable {
    case contains(FoldedText)
    case equals(FoldedText)
    case regex(CompiledRegex)

    func matches(_ text: Substring) -> Bool {
        switch self {
        case .contains(let needle): needle.isContained(in: text)
        case .equals(let needle): needle.equals(text)
        case .regex(let regex): regex.matches(text)
        }
    }

    /// A `~` pattern: plain text becomes a substring match; anything else is compiled once.
    /// - Throws: ``FilterParseError/invalidRegex(column:pattern:problem:)``.
    static func pattern(_ pattern: String, column: Int) throws(FilterParseError) -> TextMatch {
        if !pattern.contains(where: { CompiledRegex.metacharacters.contains($0) }) {
            return .contains(FoldedText(pattern))
        }
        return .regex(try CompiledRegex(pattern, column: column))
    }
}

/// A needle folded to lower case once, compared ignoring case. ASCII needles (nearly every
/// URL, reason and header value) are compared byte by byte; others go through Foundation.
struct FoldedText: Sendable {
    let text: String
    private let bytes: [UInt8]?

    init(_ text: String) {
        self.text = text
        let utf8 = Array(text.utf8)
        bytes = utf8.allSatisfy { $0 < 0x80 } ? utf8.map(Self.lower) : nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    func isContained(in haystack: Substring) -> Bool {
        guard let bytes else { return haystack.range(of: text, options: .caseInsensitive) != nil }
        if bytes.isEmpty { return true }
        // A substring of a native string is contiguous UTF-8: no copy is made here. The
        // haystack is lowered into a stack buffer and searched with libc's `memchr` for the
        // first byte and `memcmp` for the rest: a byte loop comparing at every position cost
        // about 1 µs per URL (perf, the first frame of a 10,000-row filter).
        var haystack = haystack
        return haystack.withUTF8 { hay in
            guard hay.count >= bytes.count else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: hay.count) { lowered in
                for index in 0..<hay.count { lowered[index] = Self.lower(hay[index]) }
                return bytes.withUnsafeBufferPointer { needle in
                    guard let text = lowered.baseAddress, let wanted = needle.baseAddress else { return false }
                    let last = hay.count - needle.count
                    var start = 0
                    while start <= last {
                        guard let found = memchr(text + start, Int32(wanted.pointee), last - start + 1) else { return false }
                        if memcmp(found, wanted, needle.count) == 0 { return true }
                        start = text.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                    }
                    return false
                }
            }
        }
    }

    func equals(_ other: Substring) -> Bool {
        guard let bytes else { return other.caseInsensitiveCompare(text) == .orderedSame }
        guard other.utf8.count == bytes.count else { return false }
        return zip(other.utf8, bytes).allSatisfy { Self.lower($0) == $1 }
    }
}
