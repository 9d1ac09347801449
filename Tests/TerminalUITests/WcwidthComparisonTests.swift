import CNcurses
import Testing
@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Our pure-Swift widths against the C library's `wcwidth` (glibc, C.UTF-8) over a sample of
/// ASCII, CJK, kana, Hangul, fullwidth, emoji and combining characters.
///
/// This file is the only test code that imports CNcurses: it needs the `cn_wcwidth` shim.
@Suite("Width agrees with wcwidth", .serialized)
struct WcwidthComparisonTests {
    static let sample: [Unicode.Scalar] = {
        var scalars: [Unicode.Scalar] = []
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E,          // ASCII
            0xA1...0xAC, 0xAE...0xFF,   // Latin-1 (soft hyphen differs by design: see below)
            0x300...0x36F,        // combining diacritics
            0x391...0x3A9, 0x410...0x44F,   // Greek, Cyrillic
            0x1100...0x115F,      // Hangul choseong (wide)
            0x1160...0x11A7,      // Hangul jungseong (zero)
            0x2010...0x2027,      // punctuation
            0x3021...0x302F, 0x3164...0x3164,   // Hangzhou numerals, tone marks, Hangul filler
            0x2500...0x257F,      // box drawing
            0x3001...0x3029, 0x3030...0x303E,   // CJK punctuation
            0x3041...0x3096, 0x30A1...0x30FA,   // kana
            0x4E00...0x4E80, 0x6771...0x6781, 0x4EAC...0x4EAC,   // CJK ideographs
            0xAC00...0xAC80, 0xD55C...0xD55C,   // Hangul syllables
            0xFF01...0xFF60,      // fullwidth forms
            0xFE00...0xFE0F,      // variation selectors
            0x1F300...0x1F320, 0x1F600...0x1F64F, 0x1F680...0x1F6C5,   // emoji
        ]
        for range in ranges {
            // Unassigned code points have no width to agree on (wcwidth says -1).
            scalars += range.compactMap(Unicode.Scalar.init).filter { $0.properties.generalCategory != .unassigned }
        }
        scalars += [0x200B, 0x200C, 0x200D, 0x20DD, 0x0600, 0x0605, 0x06DD, 0x00A0, 0x231A, 0x231B, 0x2705, 0x274C, 0x2B50, 0x2713, 0x2764]
            .compactMap(Unicode.Scalar.init)
        return scalars
    }()

    @Test("every sampled scalar has the width glibc's wcwidth gives it in C.UTF-8")
    func agreesWithWcwidth() throws {
        let previous = setlocale(LC_ALL, nil).map { String(cString: $0) }
        try #require(setlocale(LC_ALL, "C.UTF-8") != nil, "the C.UTF-8 locale is missing")
        defer { _ = setlocale(LC_ALL, previous ?? "C") }
        var disagreements: [String] = []
        for scalar in Self.sample {
            let theirs = Int(cn_wcwidth(wchar_t(bitPattern: scalar.value)))
            let ours = DisplayWidth.of(scalar)
            if ours != theirs {
                disagreements.append("U+\(String(scalar.value, radix: 16, uppercase: true)): ours \(ours), wcwidth \(theirs)")
            }
        }
        #expect(Self.sample.count > 900)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "; "))")
    }

    @Test("the measured width does not change with the locale")
    func localeIndependent() throws {
        let previous = setlocale(LC_ALL, nil).map { String(cString: $0) }
        defer { _ = setlocale(LC_ALL, previous ?? "C") }
        let text = "HIT ✓ 東京 👍🏽 e\u{301}"
        _ = setlocale(LC_ALL, "C")
        let inC = DisplayWidth.of(text)
        _ = setlocale(LC_ALL, "C.UTF-8")
        #expect(DisplayWidth.of(text) == inC)
        #expect(inC == 15)
        // wcwidth itself does depend on it: in the C locale it cannot measure 東 at all.
        _ = setlocale(LC_ALL, "C")
        #expect(cn_wcwidth(wchar_t(0x6771)) != 2)
    }
}
