import SessionLog

/// Looks at a file's first bytes: blank, binary, or the start of a known format.
///
/// Only the head is read (``headLength`` bytes), so checking a 200 MB session log costs one
/// small read; what lies further in is the reader's to judge.
enum ContentSniffer {
    /// How many bytes the path checks read.
    static let headLength = 4096

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The head without a UTF-8 byte order mark and leading white space.
    static func trimmed(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var bytes = head[...]
        if bytes.starts(with: byteOrderMark) { bytes = bytes.dropFirst(3) }
        return bytes.drop { isBlank($0) }
    }

    /// Whether the head holds NUL bytes or is not UTF-8. When `complete` is false the head was
    /// cut from a longer file, so a character cut in two at its end is not held against it.
    static func isBinary(_ head: [UInt8], complete: Bool) -> Bool {
        if head.contains(0) { return true }
        var bytes = head[...]
        if !complete {
            // Drop a trailing partial sequence: up to 3 continuation bytes and their lead byte.
            let tail = bytes.suffix(4)
            if let lead = tail.lastIndex(where: { $0 & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
                let needed = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : 2
                if bytes.endIndex - lead < needed { bytes = bytes[..<lead] }
            }
        }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return false
            case .error: return true
            }
        }
    }

    /// The format the head starts like, compared without white space: a session log header or
    /// a HAR's `{"log"`.
    static func format(_ head: [UInt8]) -> FileFormat? {
        let compact = String(decoding: trimmed(head).prefix(256).filter { !isBlank($0) }, as: UTF8.self)
        if compact.hasPrefix("{\"format\":\"\(SessionLogHeader.formatName)\"") { return .sessionLog }
        if compact.hasPrefix("{\"log\":") { return .har }
        return nil
    }

    /// A short, printable rendering of what the content starts with, for messages.
    static func opening(_ head: [UInt8]) -> String {
        let text = String(decoding: trimmed(head).prefix(16), as: UTF8.self)
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        let printable = line.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : String(scalar)
        }
        return printable.joined()
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
