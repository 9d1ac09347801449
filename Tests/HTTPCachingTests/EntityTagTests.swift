import Testing
@testable import HTTPCaching

/// RFC 9110 §8.8.3 (ETag) and §13.1.2 (If-None-Match lists).
@Suite("RFC 9110 §8.8.3 entity tags")
struct EntityTagTests {
    @Test("§8.8.3 a quoted tag is strong")
    func strong() {
        #expect(EntityTag(parsing: #""xyzzy""#) == EntityTag(opaqueTag: "xyzzy", isWeak: false))
    }

    @Test("§8.8.3 W/ marks a weak tag (either case of w)")
    func weak() {
        #expect(EntityTag(parsing: #"W/"xyzzy""#) == EntityTag(opaqueTag: "xyzzy", isWeak: true))
        #expect(EntityTag(parsing: #"w/"xyzzy""#) == EntityTag(opaqueTag: "xyzzy", isWeak: true))
    }

    @Test("§8.8.3 an empty opaque tag is valid")
    func emptyOpaque() {
        #expect(EntityTag(parsing: "\"\"") == EntityTag(opaqueTag: ""))
    }

    @Test("§8.8.3 white space around the tag is ignored, inside it is kept")
    func whitespace() {
        #expect(EntityTag(parsing: "  \" a b \"\t") == EntityTag(opaqueTag: " a b "))
    }

    @Test("§8.8.3 unquoted tags some servers send are accepted as strong")
    func unquoted() {
        #expect(EntityTag(parsing: "abc123") == EntityTag(opaqueTag: "abc123"))
        #expect(EntityTag(parsing: "W/abc") == EntityTag(opaqueTag: "abc", isWeak: true))
    }

    @Test("§8.8.3 quotes and spaces are found even when a combining mark follows them")
    func combiningMarks() {
        #expect(EntityTag(parsing: "\"\u{301}abc\"") == EntityTag(opaqueTag: "\u{301}abc"))
        #expect(EntityTag(parsing: EntityTag(opaqueTag: "\u{301}").description) == EntityTag(opaqueTag: "\u{301}"))
        #expect(EntityTag(parsing: "a \u{301}b") == nil)
    }

    @Test(
        "§8.8.3 malformed tags are rejected",
        arguments: [#""abc"#, #""a"b""#, "\"", "", "   ", "W/", "a b", "a,b", #"a"b"#, "a\tb", #"W/"x"#])
    func malformed(text: String) {
        #expect(EntityTag(parsing: text) == nil)
    }

    @Test("§8.8.3 description writes the field form")
    func description() {
        #expect(EntityTag(opaqueTag: "v1").description == #""v1""#)
        #expect(EntityTag(opaqueTag: "v1", isWeak: true).description == #"W/"v1""#)
    }

    /// RFC 9110 §8.8.3.2's comparison table.
    @Test(
        "§8.8.3.2 strong and weak comparison follow the RFC's table",
        arguments: [
            (#"W/"1""#, #"W/"1""#, false, true),
            (#"W/"1""#, #"W/"2""#, false, false),
            (#"W/"1""#, #""1""#, false, true),
            (#""1""#, #""1""#, true, true),
        ])
    func comparison(a: String, b: String, strong: Bool, weak: Bool) throws {
        let first = try #require(EntityTag(parsing: a))
        let second = try #require(EntityTag(parsing: b))
        #expect(first.matchesStrongly(second) == strong)
        #expect(second.matchesStrongly(first) == strong)
        #expect(first.matchesWeakly(second) == weak)
    }

    @Test("§13.1.2 If-None-Match: * matches any representation")
    func listAny() {
        let list = EntityTagList(parsing: "*")
        #expect(list == .any)
        #expect(list.containsWeakMatch(for: EntityTag(opaqueTag: "anything")))
        #expect(list.description == "*")
    }

    @Test("§13.1.2 a tag list keeps strong and weak tags in order")
    func listTags() {
        let list = EntityTagList(parsing: #""a", W/"b""#)
        #expect(list == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true)]))
        #expect(list.description == #""a", W/"b""#)
    }

    @Test("§13.1.2 a comma inside a quoted tag does not split the list")
    func listQuotedComma() {
        #expect(EntityTagList(parsing: #""a,b", "c""#) == .tags([EntityTag(opaqueTag: "a,b"), EntityTag(opaqueTag: "c")]))
    }

    @Test("§13.1.2 list members that are not tags are dropped")
    func listDropsJunk() {
        #expect(EntityTagList(parsing: #""a", "broken, , W/"b""#) == .tags([EntityTag(opaqueTag: "a")]))
        #expect(EntityTagList(parsing: "") == .tags([]))
    }

    @Test("§13.1.2 If-None-Match uses weak comparison")
    func listWeakComparison() {
        let list = EntityTagList(parsing: #"W/"v1", "v2""#)
        #expect(list.containsWeakMatch(for: EntityTag(opaqueTag: "v1")))
        #expect(list.containsWeakMatch(for: EntityTag(opaqueTag: "v2", isWeak: true)))
        #expect(!list.containsWeakMatch(for: EntityTag(opaqueTag: "v3")))
    }
}
