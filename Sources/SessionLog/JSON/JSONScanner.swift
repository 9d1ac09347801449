import CacheEvents
/// What kind of value a ``JSONSpan`` holds.
enum JSONKind: UInt8, Sendable {
    case string, number, object, array, `true`, `false`, null
}

/// Where one JSON value lies in the scanned bytes. Strings span their contents without the
/// quotes; other values span their whole text.
struct JSONSpan: Sendable {
    var start: Int
    var end: Int
    var kind: JSONKind
    /// For strings: contains a backslash escape. For numbers: has a fraction or an exponent.
    var flag: Bool

    static let missing = JSONSpan(start: 0, end: 0, kind: .null, flag: false)
}

/// A strict, allocation-free JSON scanner over bytes (RFC 8259, UTF-8 validated inside
/// strings): it checks syntax and reports where each value lies, leaving decoding to the
/// caller. Session-log lines are flat objects, so this is most of the work of reading one.
///
/// Why not `JSONDecoder` for every line: at a million lines it takes several seconds; the
/// scanner and ``EventLineParser`` take well under one (figures in `docs/session-log.md`).
struct JSONScanner {
    /// The deepest nesting accepted (deeper input is reported, never overflows the stack).
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position >= bytes.count }

    // MARK: Whitespace and punctuation

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after whitespace) or throws.
    mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        skipWhitespace()
        guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        guard bytes[position] == byte else { throw unexpected(at: position) }
        position += 1
    }

    /// Consumes `byte` (after whitespace) if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Throws unless only whitespace is left.
    mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if position < bytes.count { throw unexpected(at: position) }
    }

    // MARK: Values

    /// Scans one value of any kind (after whitespace) and returns where it lies.
    mutating func value(depth: Int = 0) throws(JSONSyntaxError) -> JSONSpan {
        skipWhitespace()
        guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return try string()
        case UInt8(ascii: "{"):
            try container(close: UInt8(ascii: "}"), keyed: true, depth: depth)
            return JSONSpan(start: start, end: position, kind: .object, flag: false)
        case UInt8(ascii: "["):
            try container(close: UInt8(ascii: "]"), keyed: false, depth: depth)
            return JSONSpan(start: start, end: position, kind: .array, flag: false)
        case UInt8(ascii: "t"):
            try literal([0x74, 0x72, 0x75, 0x65])
            return JSONSpan(start: start, end: position, kind: .true, flag: false)
        case UInt8(ascii: "f"):
            try literal([0x66, 0x61, 0x6C, 0x73, 0x65])
            return JSONSpan(start: start, end: position, kind: .false, flag: false)
        case UInt8(ascii: "n"):
            try literal([0x6E, 0x75, 0x6C, 0x6C])
            return JSONSpan(start: start, end: position, kind: .null, flag: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw unexpected(at: position)
        }
    }

    /// Scans a string starting at its opening quote; the span excludes the quotes.
    mutating func string() throws(JSONSyntaxError) -> JSONSpan {
        position += 1  // opening quote
        let start = position
        var escaped = false
        while true {
            skipPlainBytes()
            guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
            let byte = bytes[position]
            if byte == 0x22 {
                position += 1
                return JSONSpan(start: start, end: position - 1, kind: .string, flag: escaped)
            } else if byte == 0x5C {
                escaped = true
                try escape()
            } else if byte < 0x20 {
                throw JSONSyntaxError(offset: position, problem: .controlCharacter(byte))
            } else if byte < 0x80 {
                position += 1
            } else {
                try utf8Sequence()
            }
        }
    }

    /// Moves to the next byte that needs a closer look — a quote, a backslash, a control
    /// character or a byte outside ASCII — eight bytes at a time (SWAR, "SIMD within a
    /// register": the zero-byte test of Hacker's Delight §6-1; the lowest flagged byte is
    /// always a true match). Stops at the end, or before the last few bytes.
    private mutating func skipPlainBytes() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word) & highs
            if special != 0 {
                position += special.trailingZeroBitCount >> 3
                return
            }
            position += 8
        }
    }

    private mutating func container(close: UInt8, keyed: Bool, depth: Int) throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw JSONSyntaxError(offset: position, problem: .tooDeep) }
        position += 1
        if consume(close) { return }
        repeat {
            if keyed {
                skipWhitespace()
                guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
                guard bytes[position] == 0x22 else { throw unexpected(at: position) }
                _ = try string()
                try expect(UInt8(ascii: ":"))
            }
            _ = try value(depth: depth + 1)
        } while consume(UInt8(ascii: ","))
        try expect(close)
    }

    private mutating func literal(_ text: [UInt8]) throws(JSONSyntaxError) {
        for byte in text {
            guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
            guard bytes[position] == byte else { throw unexpected(at: position) }
            position += 1
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONSpan {
        let start = position
        var fractional = false
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(bytes[position]) {
            skipDigits()
        } else {
            throw unexpected(at: position)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            fractional = true
            position += 1
            try requireDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            fractional = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            try requireDigits()
        }
        return JSONSpan(start: start, end: position, kind: .number, flag: fractional)
    }

    private mutating func requireDigits() throws(JSONSyntaxError) {
        guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        guard isDigit(bytes[position]) else { throw unexpected(at: position) }
        skipDigits()
    }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    // MARK: Strings

    private mutating func escape() throws(JSONSyntaxError) {
        let start = position
        position += 1
        guard position < bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        switch bytes[position] {
        case 0x22, 0x5C, 0x2F, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let unit = try hexQuad(escapeStart: start)
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < bytes.count, bytes[position] == 0x5C, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(offset: start, problem: .invalidEscape)
                }
                position += 2
                let low = try hexQuad(escapeStart: start)
                guard (0xDC00..<0xE000).contains(low) else { throw JSONSyntaxError(offset: start, problem: .invalidEscape) }
            } else if (0xDC00..<0xE000).contains(unit) {
                throw JSONSyntaxError(offset: start, problem: .invalidEscape)
            }
        default:
            throw JSONSyntaxError(offset: start, problem: .invalidEscape)
        }
    }

    private mutating func hexQuad(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONSyntaxError(offset: position, problem: .unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[position]) else { throw JSONSyntaxError(offset: escapeStart, problem: .invalidEscape) }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 0x41 + 10
        default: return nil
        }
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    private mutating func utf8Sequence() throws(JSONSyntaxError) {
        let start = position
        let lead = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw JSONSyntaxError(offset: start, problem: .invalidUTF8)
        }
        guard start + length <= bytes.count else { throw JSONSyntaxError(offset: start, problem: .invalidUTF8) }
        let second = bytes[start + 1]
        guard second >= lower, second <= upper else { throw JSONSyntaxError(offset: start, problem: .invalidUTF8) }
        for index in (start + 2)..<(start + length) where bytes[index] & 0xC0 != 0x80 {
            throw JSONSyntaxError(offset: start, problem: .invalidUTF8)
        }
        position = start + length
    }

    // MARK: Errors

    /// The error for the character at `offset`, decoding it for the message when it is UTF-8.
    func unexpected(at offset: Int) -> JSONSyntaxError {
        let byte = bytes[offset]
        if byte < 0x80 { return JSONSyntaxError(offset: offset, problem: .unexpectedCharacter(Unicode.Scalar(byte))) }
        var probe = JSONScanner(bytes, position: offset)
        do throws(JSONSyntaxError) {
            try probe.utf8Sequence()
        } catch {
            return error
        }
        let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<probe.position]), as: UTF8.self).unicodeScalars.first!
        return JSONSyntaxError(offset: offset, problem: .unexpectedCharacter(scalar))
    }
}
