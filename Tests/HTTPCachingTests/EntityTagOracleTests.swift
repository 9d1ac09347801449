import PropertyBased
import Testing
@testable import HTTPCaching

/// `EntityTag(parsing:)` scans UTF-8 bytes for speed (it runs for every stored response and
/// every 304). This suite checks it against the Unicode-scalar implementation it replaced,
/// kept here as an obviously-correct oracle, over strings built from the parts that steer it.
@Suite("EntityTag parsing matches its oracle")
struct EntityTagOracleTests {
    static func oracle(_ text: String) -> EntityTag? {
        var rest = Substring(text).unicodeScalars
        while let first = rest.first, first == " " || first == "\t" { rest = rest.dropFirst() }
        while let last = rest.last, last == " " || last == "\t" { rest = rest.dropLast() }
        var weak = false
        if rest.count >= 2, rest.first == "W" || rest.first == "w", rest[rest.index(after: rest.startIndex)] == "/" {
            weak = true
            rest = rest.dropFirst(2)
        }
        if rest.first == "\"" {
            guard rest.count >= 2, rest.last == "\"" else { return nil }
            let inner = rest.dropFirst().dropLast()
            guard !inner.contains("\"") else { return nil }
            return EntityTag(opaqueTag: String(inner), isWeak: weak)
        }
        guard !rest.isEmpty, !rest.contains(where: { $0 == " " || $0 == "\"" || $0 == "," || $0 == "\t" }) else { return nil }
        return EntityTag(opaqueTag: String(rest), isWeak: weak)
    }

    static let parts: [String] = [
        "\"", "W/", "w/", "W", "/", " ", "\t", ",", "a", "Z", "0", "é", "\u{301}", "😀", "\"\u{301}", "W/\"", "\u{0}", "",
    ]

    @Test("§8.8.3 the byte scanner and the scalar oracle agree on assembled strings")
    func agreesWithOracle() async {
        let texts = Gen<String?>.element(of: Self.parts).map { $0! }.array(of: 0...8).map { $0.joined() }
        await propertyCheck(count: 4000, input: texts) { text in
            #expect(EntityTag(parsing: text) == Self.oracle(text), "\(text.debugDescription)")
        }
    }

    @Test("§8.8.3 a Substring parses like the String it came from")
    func substring() {
        let line = #"x, W/"v1" ,y"#
        let member = line.split(separator: ",")[1]
        #expect(EntityTag(parsing: member) == EntityTag(opaqueTag: "v1", isWeak: true))
    }

    @Test("§8.8.3 examples", arguments: [
        (#""abc""#, EntityTag(opaqueTag: "abc")),
        ("  W/\"a b\"\t", EntityTag(opaqueTag: "a b", isWeak: true)),
        (#"w/"x""#, EntityTag(opaqueTag: "x", isWeak: true)),
        (#""""#, EntityTag(opaqueTag: "")),
        ("plain", EntityTag(opaqueTag: "plain")),
        (#""é""#, EntityTag(opaqueTag: "é")),
    ])
    func examples(text: String, expected: EntityTag) {
        #expect(EntityTag(parsing: text) == expected)
    }

    @Test("§8.8.3 what is not an entity-tag is rejected", arguments: [
        "", " ", "\"", #""a"b""#, #""a"#, "a b", "a,b", #"W/"#, "W/\"", #""\#u{301}"#,
    ])
    func rejected(text: String) {
        #expect(EntityTag(parsing: text) == nil)
    }
}
