import Foundation
import Testing
@testable import TrafficFilter

/// A `~` pattern's required text rules rows out before the regex engine runs; a row it rules
/// out must be one the engine would not have matched.
@Suite("Regex prefilter")
struct RegexPrefilterTests {
    @Test("the text a pattern requires", arguments: [
        ("item.[0-9]+9", "item"), (#"^https://[^/]+/api/v[0-9]"#, "https://"), ("colou?r", "colo"), (#"\.js$"#, ".js"),
        ("x{2}yz", "yz"), ("[abc]def", "def"), (#"\d+px"#, "px"), (#"(ab)+cd"#, "cd"), ("ab+cd", "ab"), (#"a\/b\-c"#, "a/b-c"),
    ])
    func required(pattern: String, text: String) {
        #expect(RequiredText(pattern: pattern)?.needle.text == text)
    }

    @Test("no required text where an alternative, a flag or quoting could do without it", arguments: [
        "a|b", "(?i)abc", "(?:abc)", #"\Qa.b\E"#, "[[:alpha:]]x", "x?", ".*", #"\d+"#,
    ])
    func noneRequired(pattern: String) {
        #expect(RequiredText(pattern: pattern) == nil)
    }

    @Test("a filter with a regex matches exactly the rows the regex engine matches")
    func sameVerdictsAsTheEngine() throws {
        let patterns = [
            "item.[0-9]+9", #"^https://api\."#, #"\.js$"#, "colou?r", "x{2}yz", "ITEMS/4", #"q=item\+[0-9]{2}&"#, "ab+cd", "[/]v2/s",
        ]
        let texts = [
            "https://api.example.com/v1/items/4?fields=summary", "https://shop.example.org/v2/search?q=item+19&page=1",
            "https://cdn.example.com/assets/app.9.js", "https://x.test/color", "https://x.test/COLOUR", "https://x.test/xxyz",
            "https://x.test/xyz", "https://x.test/abbbcd", "https://x.test/acd", "", "https://x.test/itém9", "https://ITEM-19.test/",
        ]
        for pattern in patterns {
            let filter = try Filter("url~\"\(pattern)\"")
            let engine = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            for text in texts {
                let expected = engine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(filter.matches(Row(filterURL: text)) == expected, "url~\"\(pattern)\" on \(text)")
            }
        }
    }

    @Test("a text beyond ASCII goes to the engine: a Kelvin sign matches k ignoring case")
    func nonASCIIIsNotRuledOut() throws {
        let kelvin = "https://x.test/\u{212A}ey/1"
        #expect(try matches(#"url~"key/[0-9]""#, Row(filterURL: kelvin)))
        #expect(try !matches(#"url~"key/[0-9]""#, Row(filterURL: "https://x.test/hey/1")))
    }
}

@Suite("Substring search")
struct SubstringSearchTests {
    @Test("an ASCII needle is found ignoring case wherever it is, and only there, as Foundation finds it")
    func sameAsFoundation() {
        let needles = ["items/4", "a", "aab", "ITEM", "4", "https://", "?", "zz", "abcabd"]
        var texts = ["", "a", "https://API.example.com/v1/Items/42?x=1", "aaab", "abcabcabd", "xx4", "items/", "ITEMS/4", "é items/4 é"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abAB4/ ?zé")
        for _ in 0..<300 {
            texts.append(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" }))
        }
        for needle in needles {
            let folded = FoldedText(needle)
            for text in texts {
                let expected = text.range(of: needle, options: .caseInsensitive) != nil
                #expect(folded.isContained(in: text[...]) == expected, "\(needle) in \(text)")
                #expect(folded.isContained(in: ("<" + text + ">").dropFirst().dropLast()) == expected, "\(needle) in a slice of \(text)")
            }
        }
    }

    @Test("a regex's remembered verdicts are the engine's, also past its memory's limit")
    func rememberedVerdicts() throws {
        let filter = try Filter(#"url~"item.[0-9]+9""#)
        let engine = try NSRegularExpression(pattern: "item.[0-9]+9", options: [.caseInsensitive])
        var matched = 0
        for round in 0..<2 {
            for index in 0..<9000 {
                let url = "https://x.test/item\(index)"
                let expected = engine.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
                #expect(filter.matches(Row(filterURL: url)) == expected, "round \(round): \(url)")
                if expected { matched += 1 }
            }
        }
        #expect(matched > 1000 && matched < 18_000)
        // Texts too long to remember are matched every time, with the same answers.
        for tail in ["123459", "12345", "x9"] {
            let url = "https://x.test/" + String(repeating: "a", count: 3000) + "item" + tail
            let expected = engine.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
            #expect(filter.matches(Row(filterURL: url)) == expected && filter.matches(Row(filterURL: url)) == expected, "\(tail)")
        }
    }
}
