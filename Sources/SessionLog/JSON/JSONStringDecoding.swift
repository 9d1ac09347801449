import CacheEvents
/// Decodes the contents of a JSON string already validated by ``JSONScanner``.
enum JSONStringDecoding {
    /// The string value of `span`'s contents, resolving backslash escapes when it has any.
    static func decode(_ span: JSONSpan, in bytes: UnsafeBufferPointer<UInt8>, interner: inout StringInterner) -> String {
        let contents = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
        guard span.flag else { return interner.string(contents) }
        return interner.string(unescape(contents))
    }

    /// Resolves `\n`, `\"`, `\u00e9`, surrogate pairs, … (input validated, so every escape is well formed).
    static func unescape(_ contents: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(contents.count)
        var index = 0
        while index < contents.count {
            let byte = contents[index]
            guard byte == 0x5C else {
                output.append(byte)
                index += 1
                continue
            }
            let code = contents[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hexQuad(contents, at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    let low = hexQuad(contents, at: index + 2)
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                output.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default: output.append(code)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexQuad(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(JSONScanner.hexValue(bytes[index + offset]) ?? 0) }
        return value
    }
}
