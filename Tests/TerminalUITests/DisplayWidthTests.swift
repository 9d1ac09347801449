import Testing
@testable import TerminalUI

/// Display width per grapheme cluster, in pure Swift.
@Suite("Display width")
struct DisplayWidthTests {
    @Test("graphemes measure 0, 1 or 2 columns", arguments: [
        ("a", 1), ("~", 1), ("é", 1), ("e\u{301}", 1), ("✓", 1), ("─", 1), ("…", 1), ("Ж", 1),
        ("東", 2), ("京", 2), ("한", 2), ("あ", 2), ("ア", 2), ("ａ", 2), ("\u{3000}", 2), ("、", 2),
        ("😀", 2), ("👍", 2), ("👍🏽", 2), ("⌚", 2), ("🚀", 2), ("❤️", 2), ("❤", 1), ("👨‍👩‍👧", 2),
        ("🇯🇵", 2), ("🇯", 1), ("#️⃣", 2), ("\u{1100}\u{1161}\u{11A8}", 2),
        ("\u{301}", 0), ("\u{200D}", 0), ("\u{FE0F}", 0), ("\u{200B}", 0), ("\u{202E}", 0), ("\u{2066}", 0),
        ("\u{AD}", 1), ("\u{1B}", 1), ("\t", 1), ("\u{85}", 1), ("\r\n", 1),
    ] as [(Character, Int)])
    func graphemeWidths(character: Character, expected: Int) {
        #expect(DisplayWidth.of(character) == expected)
    }

    @Test("a string's width is the sum over its graphemes")
    func strings() {
        #expect(DisplayWidth.of("HIT ✓ 東京") == 10)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("naïve café") == 10)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)
        #expect(DisplayWidth.of("ok 👍🏽!"[...]) == 6)
    }

    @Test("controls and separators are recognised as controls, ordinary text is not")
    func controls() {
        for character: Character in ["\u{0}", "\u{1B}", "\n", "\u{7F}", "\u{9B}", "\u{2028}", "\u{2029}"] {
            #expect(DisplayWidth.isControl(character), "\(character.unicodeScalars.first!.value)")
        }
        for character: Character in ["a", " ", "東", "\u{202E}", "\u{AD}"] {
            #expect(!DisplayWidth.isControl(character))
        }
    }

    @Test("the wide table is sorted and its ranges do not overlap")
    func tableIsSorted() {
        let ranges = WideCharacterTable.ranges
        #expect(ranges.count % 2 == 0)
        for index in stride(from: 0, to: ranges.count, by: 2) {
            #expect(ranges[index] <= ranges[index + 1])
            if index + 2 < ranges.count { #expect(ranges[index + 1] < ranges[index + 2]) }
        }
        #expect(WideCharacterTable.contains(0x1100) && WideCharacterTable.contains(0x3FFFD))
        #expect(!WideCharacterTable.contains(0x10FF) && !WideCharacterTable.contains(0x1F1E6))
    }
}
