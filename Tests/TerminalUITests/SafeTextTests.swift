import DemoOrigin  // SplitMix64: a seeded generator, so property tests are reproducible
import Testing
@testable import TerminalUI

/// Untrusted text becomes visible escapes; nothing that acts on a terminal survives.
@Suite("Safe text")
struct SafeTextTests {
    @Test("controls, escapes and bidi overrides are shown as escapes", arguments: [
        ("plain https://example.com/ü/東京", "plain https://example.com/ü/東京"),
        ("a\u{1B}[2Jb", "a\\e[2Jb"),
        ("line1\nline2\r\n", "line1\\nline2\\r\\n"),
        ("tab\there", "tab\\there"),
        ("nul\u{0}bell\u{7}del\u{7F}", "nul\\x00bell\\x07del\\x7f"),
        ("c1\u{9B}31m\u{85}", "c1\\u{9b}31m\\u{85}"),
        ("user\u{202E}gpj.exe", "user\\u{202e}gpj.exe"),
        ("\u{2066}x\u{2069}\u{200F}", "\\u{2066}x\\u{2069}\\u{200f}"),
        ("zero\u{200B}width\u{AD}soft\u{2028}", "zero\\u{200b}width\\u{ad}soft\\u{2028}"),
        ("back\\slash", "back\\\\slash"),
        ("family 👨‍👩‍👧 flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "family 👨‍👩‍👧 flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"),
        ("a\u{200D}b", "a\\u{200d}b"),
        ("e\u{301} ❤️", "e\u{301} ❤️"),
    ])
    func escapes(input: String, expected: String) {
        #expect(SafeText.escape(input) == expected)
    }

    @Test("invalid UTF-8 bytes are shown as \\xNN, valid runs around them survive")
    func invalidBytes() {
        #expect(SafeText.escape(bytes: Array("ok".utf8)) == "ok")
        #expect(SafeText.escape(bytes: [0x61, 0xFF, 0x62]) == "a\\xffb")
        #expect(SafeText.escape(bytes: [0xE6, 0x9D]) == "\\xe6\\x9d")            // truncated 東
        #expect(SafeText.escape(bytes: [0xE6, 0x9D, 0xB1, 0xC0, 0x80]) == "東\\xc0\\x80")   // overlong NUL
        #expect(SafeText.escape(bytes: [0xED, 0xA0, 0x80]) == "\\xed\\xa0\\x80")  // a UTF-16 surrogate
        #expect(SafeText.escape(bytes: [0x1B, 0x5B, 0x41, 0xC2, 0x9B]) == "\\e[A\\u{9b}")
        #expect(SafeText.escape(bytes: []) == "")
    }

    @Test("no escaped string ever contains a control: 20 000 random byte strings")
    func randomBytesProperty() {
        var generator = SplitMix64(seed: 0x5EED_CAC4E)
        for round in 0..<20_000 {
            let length = Int(generator.next() % 40)
            // Bias towards the dangerous bytes so every case comes up often.
            let bytes = (0..<length).map { _ -> UInt8 in
                let roll = generator.next()
                switch roll % 4 {
                case 0: return UInt8(truncatingIfNeeded: roll >> 8) & 0x3F              // C0 and ASCII
                case 1: return [0x1B, 0x7F, 0xC2, 0x9B, 0xE2, 0x80, 0xAE, 0x81][Int(roll >> 8) % 8]
                default: return UInt8(truncatingIfNeeded: roll >> 8)
                }
            }
            let escaped = SafeText.escape(bytes: bytes)
            let issue = Self.firstUnsafe(escaped)
            #expect(issue == nil, "round \(round), bytes \(bytes): \(issue ?? "")")
            if issue != nil { return }
        }
    }

    @Test("no escaped string ever contains a control: 20 000 random scalar strings")
    func randomScalarsProperty() {
        var generator = SplitMix64(seed: 42)
        let interesting: [UInt32] = [0x1B, 0x7F, 0x9B, 0x85, 0x202E, 0x2066, 0x200D, 0x200B, 0x2028, 0xFEFF, 0xE0041]
        for round in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 20) {
                let roll = generator.next()
                let value = roll % 3 == 0 ? interesting[Int(roll >> 8) % interesting.count] : UInt32(truncatingIfNeeded: roll >> 8) % 0x30000
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
            let issue = Self.firstUnsafe(SafeText.escape(String(text)))
            #expect(issue == nil, "round \(round): \(issue ?? "")")
            if issue != nil { return }
        }
    }

    /// Describes the first thing in `text` that could act on a terminal, or `nil`.
    ///
    /// UTF-8 bytes below 0x20 and 0x7F are always the control itself (multi-byte sequences
    /// use only bytes >= 0x80). C1 controls U+0080–009F are checked as scalars, because as
    /// UTF-8 *bytes* 0x80–0x9F also occur inside ordinary characters (東 is E6 9D B1).
    static func firstUnsafe(_ text: String) -> String? {
        if let byte = text.utf8.first(where: { $0 < 0x20 || $0 == 0x7F }) { return "byte \(byte)" }
        for scalar in text.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) { return "C1 U+\(String(scalar.value, radix: 16))" }
            if SafeText.isBidiControl(scalar) { return "bidi U+\(String(scalar.value, radix: 16))" }
            if scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator {
                return "separator U+\(String(scalar.value, radix: 16))"
            }
        }
        return nil
    }
}
