/// How many terminal columns text takes, measured per grapheme cluster in pure Swift.
///
/// Layout must not depend on the locale or the C library, so this does not call `wcwidth`:
/// it uses the stdlib's Unicode properties plus ``WideCharacterTable``. Per grapheme
/// (`Character`):
/// - **0** when it has no visible base: a lone combining mark, zero-width joiner, variation
///   selector or other format character (bidi controls included);
/// - **2** when its base is East Asian Wide or Fullwidth (CJK, kana, Hangul, fullwidth
///   forms, emoji with emoji presentation), when an emoji is followed by VS16 (U+FE0F, as in
///   `❤️`), and for a regional-indicator flag pair (`🇯🇵`);
/// - **1** otherwise — including control characters, which ``Grid`` draws as `�`, and East
///   Asian *Ambiguous* characters (`…`, `─`, `①`), as in a non-CJK locale.
///
/// ```swift
/// DisplayWidth.of("HIT ✓ 東京")   // 10
/// DisplayWidth.of("e\u{301}")     // 1
/// DisplayWidth.of("👨‍👩‍👧")         // 2
/// ```
public enum DisplayWidth {
    /// The display width of a string: the sum over its grapheme clusters.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The display width of one grapheme cluster (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        // ASCII (controls and CR LF included) is one column: no Unicode property lookups for
        // the bulk of every frame.
        if character.isASCII { return 1 }
        if isControl(character) { return 1 }
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        if let first = iterator.next(), isRegionalIndicator(first),
           let second = iterator.next(), isRegionalIndicator(second) {
            return 2
        }
        guard let base = scalars.first(where: { of($0) > 0 }) else { return 0 }
        let width = of(base)
        if width == 1, base.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return width
    }

    /// The display width of a single scalar outside any cluster context: 0 for marks, format
    /// characters and Hangul medial vowels and final consonants, 2 for wide and fullwidth,
    /// 1 otherwise (controls included).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return 1 }                  // ASCII fast path (controls count as 1)
        if isZeroWidth(scalar) { return 0 }
        return WideCharacterTable.contains(value) ? 2 : 1
    }

    /// Whether a grapheme starts with a control character (C0, DEL, C1) or a line or
    /// paragraph separator: something a terminal would act on rather than show.
    public static func isControl(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        switch first.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    // MARK: Properties

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Soft hyphen and the prepended concatenation marks (Arabic number signs…) are format
        // characters that terminals do show, as glibc's wcwidth says.
        case 0x00AD, 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD:
            return false
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true   // Hangul jungseong/jongseong
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }
}
