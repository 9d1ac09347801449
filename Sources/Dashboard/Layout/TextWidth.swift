import TerminalUI

/// Display width with a fast path: text made only of "simple" characters — printable ASCII,
/// Latin letters, and the punctuation, arrows, box-drawing, block and check-mark characters the
/// layout draws with — is one column per character; anything else is measured by
/// ``DisplayWidth``. Layout measures every span it places, so this keeps a 200×60 frame well
/// under 2 ms.
enum TextWidth {
    /// `text` filled with spaces to `width` columns: right-aligned (`left` fill, for figures)
    /// or left-aligned; text already as wide is returned as it is.
    static func pad(_ text: String, to width: Int, left: Bool = true) -> String {
        let fill = String(repeating: " ", count: max(0, width - of(text)))
        return left ? fill + text : text + fill
    }

    /// `text` cut to at most `limit` columns, ending in `…` when it was cut.
    static func truncated(_ text: String, to limit: Int) -> String {
        guard of(text) > limit else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            guard used + width <= limit - 1 else { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    /// How many columns `text` takes.
    static func of(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            guard isSimple(scalar) else { return DisplayWidth.of(text) }
            count += 1
        }
        return count
    }

    /// Whether `scalar` is one column wide and a grapheme of its own whatever follows it (none
    /// of these is combining, joining, wide, a control or an emoji).
    @inline(__always)
    static func isSimple(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: true                  // printable ASCII
        case 0xA0...0xAC, 0xAE...0x2FF: true    // Latin-1 and Latin extended, without the soft hyphen
        case 0x2010...0x2027: true              // dashes, quotes, bullet, ellipsis
        case 0x2190...0x21FF: true              // arrows (↻ ⇢ ⇉ ↑ ↓)
        case 0x2500...0x259F: true              // box drawing and block elements (─ │ █ ▏)
        case 0x25A0...0x25FC: true              // geometric shapes (▲ ▼); U+25FD–25FE are wide
        case 0x2713, 0x2717: true               // ✓ ✗
        default: false
        }
    }
}

/// ``SafeText/escape(_:)`` with a fast path: printable ASCII without a backslash has nothing
/// to escape, and most URLs and header values are exactly that.
enum Escaped {
    static func text(_ text: String) -> String {
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x5C {
            return SafeText.escape(text)
        }
        return text
    }

    /// What the user typed (a filter, a search), escaped as ``text(_:)`` but with its
    /// backslashes as typed: `url~"\d"` shows as typed, not as `url~"\\d"`.
    static func typed(_ text: String) -> String {
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F {
            return SafeText.escape(text, backslashes: false)
        }
        return text
    }
}
