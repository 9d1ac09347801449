/// A strict RFC 8259 JSON parser that records the position of every value.
///
/// Why not `JSONSerialization`: on Linux it reports syntax errors as a character offset at
/// best ("around character 19") and nothing at all at end of file, accepts trailing commas,
/// silently keeps the last of duplicate keys, and cannot tell `1` from `true`. Theme errors
/// must name a line and column, so this small parser does the scanning itself.
struct JSONParser {
    /// A syntax error at a position.
    struct SyntaxError: Error, Equatable {
        var message: String
        var position: SourcePosition
    }

    // Internal rather than private: the scanning helpers live in JSONParser+Scanning.swift.
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    private var depth = 0
    private static let maximumDepth = 100
    /// How far along the current line ``position`` has counted columns.
    let columns = ColumnCount()

    /// A reference, so the `position` getter can carry its count forward.
    final class ColumnCount {
        var lineStart = -1
        var index = 0
        var scalars = 0
    }

    /// Parses one JSON document from UTF-8 bytes (a leading byte-order mark is skipped).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Values

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        let start = position
        guard let byte = current else { throw error("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: .object(try parseObject()), position: start)
        case UInt8(ascii: "["): return JSONNode(value: .array(try parseArray()), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), position: start)
        default:
            let isWord = describeCurrent().hasPrefix("word")
            throw error("unexpected \(describeCurrent()), expected a value" + (isWord ? " (put strings in double quotes)" : ""))
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> [JSONNode.Member] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a quoted key")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after key \"\(SafeText.escape(key))\"")
            }
            index += 1
            skipWhitespace()
            members.append(.init(key: key, keyPosition: keyPosition, value: try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> [JSONNode] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return elements }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return elements
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try skipDigits() > 0 else { throw error("expected a digit") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try skipDigits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("number \(text) is out of range") }
        return value
    }

    private mutating func skipDigits() throws(SyntaxError) -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func expectWord(_ word: String) throws(SyntaxError) {
        let start = index
        for expected in word.utf8 {
            guard current == expected else {
                index = start   // report the whole word ("tru"), not the letter where it went wrong
                throw error("unexpected \(describeCurrent()), expected a value (put strings in double quotes)")
            }
            index += 1
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }
}
