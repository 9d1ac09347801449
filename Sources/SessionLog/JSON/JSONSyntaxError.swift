import CacheEvents
/// Why some bytes are not JSON, and where: the byte offset lets callers name a line and
/// column (``location(in:)``).
struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    enum Problem: Sendable, Hashable {
        /// A character that cannot start or continue a value here.
        case unexpectedCharacter(Unicode.Scalar)
        /// The input ended inside a value.
        case unexpectedEnd
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// A raw control character inside a string (JSON requires `\n`, `\t`, … escapes).
        case controlCharacter(UInt8)
        /// A backslash escape JSON does not define, or a broken `\u` escape.
        case invalidEscape
        /// Arrays and objects nested deeper than ``JSONScanner/maximumDepth``.
        case tooDeep
    }

    /// The byte offset of the problem.
    var offset: Int
    /// What was wrong.
    var problem: Problem

    /// `unexpected character 'x'`, `unexpected end of input`, …
    var description: String {
        switch problem {
        case .unexpectedCharacter(let scalar):
            if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
                return "unexpected character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
            }
            return "unexpected character '\(Character(scalar))'"
        case .unexpectedEnd:
            return "unexpected end of input"
        case .invalidUTF8:
            return "invalid UTF-8"
        case .controlCharacter(let byte):
            return "unescaped control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4)) in a string"
        case .invalidEscape:
            return "invalid escape sequence in a string"
        case .tooDeep:
            return "arrays or objects nested more than \(JSONScanner.maximumDepth) deep"
        }
    }

    /// The 1-based line and column (in bytes) of ``offset`` within `bytes`.
    func location(in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        TextPosition.lineAndColumn(ofOffset: offset, in: bytes)
    }
}

/// Converts byte offsets into 1-based line and column numbers.
enum TextPosition {
    static func lineAndColumn(ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, end - lineStart + 1)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
