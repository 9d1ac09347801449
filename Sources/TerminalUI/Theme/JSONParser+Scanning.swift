// MARK: - Scanning helpers: position tracking, whitespace, strings and error text.
extension JSONParser {
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The position of the byte at `index`; columns count scalars, not bytes. Counted on from
    /// the last position asked for on the same line, so that a file written on one long line
    /// costs its length once, not once per value.
    var position: SourcePosition {
        let end = min(index, bytes.count)
        if columns.lineStart != lineStart || columns.index > end {
            (columns.lineStart, columns.index, columns.scalars) = (lineStart, lineStart, 0)
        }
        columns.scalars += bytes[columns.index..<end].count { $0 & 0xC0 != 0x80 }
        columns.index = end
        return SourcePosition(line: line, column: columns.scalars + 1)
    }

    func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, position: position)
    }

    mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            default:
                return
            }
        }
    }

    /// Names the byte at `index` for an error message: `'x'`, a whole unquoted word, or
    /// "end of file".
    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        let isLetter = { (b: UInt8) in (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        if isLetter(byte) {
            let word = bytes[index...].prefix(while: isLetter).prefix(30)
            return "word \"\(String(decoding: word, as: UTF8.self))\""
        }
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// Parses a string starting at its opening quote; the cursor ends after the closing quote.
    mutating func parseString() throws(SyntaxError) -> String {
        let start = position
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else {
                throw SyntaxError(message: "unterminated string (missing closing '\"')", position: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw SyntaxError(message: "string is not valid UTF-8", position: start)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw error("control character in a string (write it as an escape such as \\n)")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(SyntaxError) {
        guard let byte = current else { throw error("unexpected end of file in an escape") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            index -= 1
            let shown = byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "<byte \(byte)>"
            throw error("unknown escape \\\(shown) (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("lone surrogate \\u\(String(code, radix: 16)) in a string")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair in a string") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw error("lone surrogate \\u\(String(code, radix: 16)) in a string")
        }
        utf8.append(contentsOf: String(scalar).utf8)
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
