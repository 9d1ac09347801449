/// Turns untrusted text (URLs, header values, error messages from the network) into text that
/// is safe and readable on a terminal.
///
/// Nothing in the result can act on the terminal: every control character, escape sequence
/// start, bidi override and invisible format character becomes a visible escape:
///
/// | input | shown as |
/// | --- | --- |
/// | ESC, LF, TAB, CR | `\e`, `\n`, `\t`, `\r` |
/// | other C0 controls, DEL | `\x00`…`\x1f`, `\x7f` |
/// | C1 controls U+0080–009F | `\u{9b}` |
/// | bidi controls U+202A–202E, U+2066–2069, U+200E/F, U+061C | `\u{202e}` |
/// | other format characters (zero-width space, soft hyphen, …), U+2028/2029 | `\u{200b}` |
/// | backslash | `\\` (so escapes are unambiguous) |
/// | invalid UTF-8 byte (from ``escape(bytes:)``) | `\xff` |
///
/// Zero-width joiners and tag characters inside an emoji sequence (`👨‍👩‍👧`, subdivision
/// flags) are kept, so emoji still render.
///
/// ```swift
/// SafeText.escape("evil\u{1B}[2Jvalue")   // "evil\\e[2Jvalue"
/// SafeText.escape(bytes: [0x61, 0xFF])     // "a\\xff"
/// ```
public enum SafeText {
    /// Escapes a string for display.
    public static func escape(_ text: String) -> String {
        escape(text, backslashes: true)
    }

    /// Escapes a string for display; `backslashes: false` leaves backslashes as they are: for
    /// text the user typed (a filter's regex, `url~"\\d"`), which would otherwise show every
    /// backslash doubled.
    public static func escape(_ text: String, backslashes: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            let scalars = character.unicodeScalars
            let inEmoji = scalars.first.map(isEmojiBase) ?? false
            if !scalars.contains(where: { needsEscape($0, inEmoji: inEmoji, backslashes: backslashes) }) {
                result.append(character)
                continue
            }
            for scalar in scalars {
                if needsEscape(scalar, inEmoji: inEmoji, backslashes: backslashes) {
                    result += escaped(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Escapes raw bytes for display: valid UTF-8 runs as ``escape(_:)``, every byte that is
    /// not part of a valid UTF-8 sequence as `\xNN`.
    public static func escape(bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        var result = ""
        var run = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0   // bytes consumed so far: the parser reports lengths, not the bytes
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                run.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                result += escape(String(run))
                run = String.UnicodeScalarView()
                for byte in bytes[offset..<(offset + length)] { result += hex(byte, prefix: "\\x") }
                offset += length
            case .emptyInput:
                return result + escape(String(run))
            }
        }
    }

    // MARK: Classification

    /// Whether `scalar` must be escaped; `inEmoji` says the grapheme starts with an emoji.
    static func needsEscape(_ scalar: Unicode.Scalar, inEmoji: Bool, backslashes: Bool = true) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || (value == 0x5C && backslashes) { return true }
        if value < 0xA0 { return false }
        if isBidiControl(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .lineSeparator, .paragraphSeparator:
            return true
        case .format:
            let joinsEmoji = value == 0x200D || (0xE0020...0xE007F).contains(value)
            return !(inEmoji && joinsEmoji)
        default:
            return false
        }
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func isEmojiBase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0xFF && (scalar.properties.isEmojiPresentation || scalar.properties.isEmoji)
    }

    // MARK: Spelling

    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: "\\e"
        case 0x0A: "\\n"
        case 0x09: "\\t"
        case 0x0D: "\\r"
        case 0x5C: "\\\\"
        case 0..<0x20, 0x7F: hex(UInt8(scalar.value), prefix: "\\x")
        default: "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }

    static func hex(_ byte: UInt8, prefix: String) -> String {
        let digits = String(byte, radix: 16)
        return prefix + (digits.count == 1 ? "0" + digits : digits)
    }
}
