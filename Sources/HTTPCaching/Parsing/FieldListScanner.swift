/// Splits HTTP list-based field values (RFC 9110 §5.6.1) into elements, honouring quoted strings.
///
/// Used for `Cache-Control`, `Vary`, `If-None-Match`, `Pragma` and `Connection`. It is total:
/// any byte sequence yields some (possibly empty) list and never traps.
enum FieldListScanner {
    /// One `name[=value]` element of a parameterised list such as Cache-Control.
    struct Element: Equatable {
        var name: String
        var value: String?
        /// Whether the value was written as a quoted-string.
        var valueWasQuoted: Bool
        /// Whether the element breaks the syntax — a quote never closed, or more text before
        /// the next comma (`max-age=100 no-store`): then ``value`` is the text as written
        /// (`100 no-store`), which no number parses. (White space around `=` is tolerated, as browsers do.)
        var isMalformed = false
    }

    /// Parses `token [ "=" ( token / quoted-string ) ]` elements separated by commas.
    /// Names are lower-cased (directive names are case-insensitive); values keep their case.
    /// An element whose name is not a token is skipped up to the next comma.
    ///
    /// Text after an element and before the next comma (a comma left out) is read again as
    /// elements of its own, so a `no-store` there still counts, and the element before it is
    /// ``Element/isMalformed``.
    static func parameterElements(_ text: String) -> [Element] {
        var elements: [Element] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            while i < bytes.count, isSeparatorOrSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { break }
            let nameStart = i
            while i < bytes.count, isTokenChar(bytes[i]) { i += 1 }
            guard i > nameStart else {
                i = skipToComma(bytes, from: i)
                continue
            }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            skipSpaces(bytes, &i)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                // No value; anything before the next comma is read again as elements.
                elements.append(Element(name: name, value: nil, valueWasQuoted: false))
                continue
            }
            i += 1
            skipSpaces(bytes, &i)
            let valueStart = i
            var unclosed = false
            var element: Element
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                let (value, next, closed) = quotedString(bytes, from: i)
                unclosed = !closed
                element = Element(name: name, value: value, valueWasQuoted: true)
                i = next
            } else {
                let tokenStart = i
                while i < bytes.count, bytes[i] != UInt8(ascii: ","), !isSpace(bytes[i]) { i += 1 }
                element = Element(name: name, value: String(decoding: bytes[tokenStart..<i], as: UTF8.self), valueWasQuoted: false)
            }
            let valueEnd = i
            skipSpaces(bytes, &i)
            let followed = i < bytes.count && bytes[i] != UInt8(ascii: ",")
            if unclosed || followed {
                // Malformed: the value as written, up to the next comma (so no number parses it).
                element.isMalformed = true
                element.value = String(decoding: bytes[valueStart..<skipToComma(bytes, from: valueEnd)], as: UTF8.self)
            }
            elements.append(element)
            // Text before the next comma is read again as elements (`i` is at it, or at the comma).
        }
        return elements
    }

    /// Splits a comma-separated list into trimmed, non-empty members, keeping quoted commas.
    static func members(_ text: String) -> [String] {
        var members: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        var start = 0
        var inQuotes = false
        while i <= bytes.count {
            if i == bytes.count || (!inQuotes && bytes[i] == UInt8(ascii: ",")) {
                let member = trimmed(bytes[start..<i])
                if !member.isEmpty { members.append(member) }
                start = i + 1
            } else if bytes[i] == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if inQuotes, bytes[i] == UInt8(ascii: "\\") {
                i += 1
            }
            i += 1
        }
        return members
    }

    /// Reads a quoted-string starting at the opening quote; returns the unescaped text, the
    /// index after the closing quote (or the end when the quote is never closed), and whether
    /// it was closed.
    static func quotedString(_ bytes: [UInt8], from start: Int) -> (String, Int, closed: Bool) {
        var out: [UInt8] = []
        var i = start + 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") { return (String(decoding: out, as: UTF8.self), i + 1, true) }
            if byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
                out.append(bytes[i + 1])
                i += 2
                continue
            }
            out.append(byte)
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), i, false)
    }

    // MARK: Character classes (RFC 9110 §5.6.2)

    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isSeparatorOrSpace(_ byte: UInt8) -> Bool { isSpace(byte) || byte == UInt8(ascii: ",") }

    private static func skipSpaces(_ bytes: [UInt8], _ i: inout Int) {
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
    }

    private static func skipToComma(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        var inQuotes = false
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\"") { inQuotes.toggle() }
            if !inQuotes, bytes[i] == UInt8(ascii: ",") { return i }
            i += 1
        }
        return i
    }

    private static func trimmed(_ slice: ArraySlice<UInt8>) -> String {
        var lower = slice.startIndex
        var upper = slice.endIndex
        while lower < upper, isSpace(slice[lower]) { lower += 1 }
        while upper > lower, isSpace(slice[upper - 1]) { upper -= 1 }
        return String(decoding: slice[lower..<upper], as: UTF8.self)
    }
}
