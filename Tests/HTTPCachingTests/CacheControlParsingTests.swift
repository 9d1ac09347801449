import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §5.2: the Cache-Control field, its syntax and its directive values.
@Suite("RFC 9111 §5.2 Cache-Control parsing")
struct CacheControlParsingTests {
    typealias Directive = CacheControl.Directive

    /// The names of the boolean directives that are set.
    static func flags(_ cc: CacheControl) -> Set<String> {
        var set: Set<String> = []
        if cc.noStore { set.insert("no-store") }
        if cc.noTransform { set.insert("no-transform") }
        if cc.onlyIfCached { set.insert("only-if-cached") }
        if cc.mustRevalidate { set.insert("must-revalidate") }
        if cc.proxyRevalidate { set.insert("proxy-revalidate") }
        if cc.mustUnderstand { set.insert("must-understand") }
        if cc.isPublic { set.insert("public") }
        if cc.immutable { set.insert("immutable") }
        return set
    }

    @Test("§5.2 directive names are case-insensitive")
    func caseInsensitiveNames() {
        let cc = CacheControl("MAX-AGE=60, No-Store, Must-Revalidate")
        #expect(cc.maxAge == .seconds(60))
        #expect(Self.flags(cc) == ["no-store", "must-revalidate"])
        #expect(cc.directives.map(\.name) == ["max-age", "no-store", "must-revalidate"])
    }

    @Test(
        "§5.2 each boolean directive sets exactly its own flag",
        arguments: ["no-store", "no-transform", "only-if-cached", "must-revalidate", "proxy-revalidate", "must-understand", "public", "immutable"])
    func booleanDirective(name: String) {
        #expect(Self.flags(CacheControl(name)) == [name])
        #expect(CacheControl(name).extensions.isEmpty)
    }

    @Test("§5.2 an empty field has no directives")
    func empty() {
        #expect(CacheControl("").directives.isEmpty)
        #expect(CacheControl.empty.maxAge == .absent)
        #expect(CacheControl.empty.maxStale == nil)
        #expect(CacheControl.empty.noCache == .absent)
        #expect(Self.flags(.empty).isEmpty)
    }

    @Test("§5.2 recipients accept the quoted-string form of a token argument")
    func quotedDeltaSeconds() {
        #expect(CacheControl(#"max-age="60""#).maxAge == .seconds(60))
    }

    @Test("§5.2 a quoted argument keeps its commas")
    func quotedCommas() {
        let cc = CacheControl(#"no-cache="Set-Cookie, X-Trace", max-age=5"#)
        #expect(cc.noCache == .fields(["set-cookie", "x-trace"]))
        #expect(cc.maxAge == .seconds(5))
        #expect(cc.directives.count == 2)
    }

    @Test("§5.2 backslash escapes in a quoted argument are resolved")
    func quotedEscapes() {
        let cc = CacheControl(#"ext="a\"b\\c", max-age=1"#)
        #expect(cc.extensions == [Directive(name: "ext", value: #"a"b\c"#)])
        #expect(cc.maxAge == .seconds(1))
    }

    @Test("§5.2 white space around '=' and between directives is tolerated")
    func whitespace() {
        let cc = CacheControl(" max-age = 60 ,\tno-store ,, ")
        #expect(cc.maxAge == .seconds(60))
        #expect(cc.noStore)
        #expect(cc.directives.count == 2)
    }

    /// `max-age=100 no-store` (a comma left out) was read as `max-age=100`: stored, and reused.
    @Test("§5.2 text after a directive's value makes the value invalid and is read as directives of its own; elements that are not tokens are skipped")
    func junkAfterValue() {
        let cc = CacheControl("max-age=60 junk, =5, no-store")
        #expect(cc.directives == [
            Directive(name: "max-age", value: "60 junk"), Directive(name: "junk", value: nil), Directive(name: "no-store", value: nil),
        ])
        #expect(cc.maxAge == .invalid("60 junk"))
        let missingComma = CacheControl("max-age=100 no-store")
        #expect(missingComma.noStore, "no-store after a missing comma still counts")
        #expect(missingComma.maxAge.value == nil)
        #expect(CacheControl("max-age=100;no-store").maxAge == .invalid("100;no-store"))
        #expect(CacheControl(#"max-age="100"#).maxAge.value == nil, "a quote never closed")
        #expect(CacheControl(#"no-cache="Set-Cookie" x"#).noCache == .unqualified, "a malformed qualified no-cache applies to the whole response")
        #expect(CacheControl(#"max-age="100", public"#).maxAge == .seconds(100))
    }

    @Test("§5.2 every Cache-Control field line is read")
    func severalFieldLines() {
        let cc = CacheControl(Fixture.fields(["Cache-Control: max-age=60", "Cache-Control: must-revalidate"]))
        #expect(cc.maxAge == .seconds(60))
        #expect(cc.mustRevalidate)
    }

    @Test("§4.2.1 a directive repeated with the same value counts once")
    func duplicateEqual() {
        #expect(CacheControl("max-age=60, max-age=60").maxAge == .seconds(60))
        #expect(CacheControl("max-age=60, max-age=060").maxAge == .seconds(60))
    }

    @Test("§4.2.1 a directive repeated with different values is conflicting")
    func duplicateConflicting() {
        #expect(CacheControl("max-age=60, max-age=120").maxAge == .conflicting(["60", "120"]))
        #expect(CacheControl("s-maxage=1, s-maxage=x").sharedMaxAge == .conflicting(["1", "x"]))
    }

    @Test(
        "§4.2.1 an invalid delta-seconds argument is reported as invalid",
        arguments: [
            ("max-age=abc", "abc"), ("max-age=-1", "-1"), ("max-age=", ""), ("max-age", ""), ("max-age=1.5", "1.5"),
            ("max-age=\"\"", ""),
        ])
    func invalidMaxAge(field: String, raw: String) {
        #expect(CacheControl(field).maxAge == .invalid(raw))
    }

    @Test(
        "§1.2.2 delta-seconds beyond 2^31 saturate at 2^31",
        arguments: [
            ("max-age=99999999999999999999999999", 2_147_483_648), ("max-age=2147483648", 2_147_483_648),
            ("max-age=2147483649", 2_147_483_648), ("max-age=2147483647", 2_147_483_647),
        ])
    func saturation(field: String, seconds: Int) {
        #expect(CacheControl(field).maxAge == .seconds(seconds))
    }

    @Test("§5.2 each delta-seconds directive is read into its own property")
    func deltaSecondsProperties() {
        let cc = CacheControl("max-age=1, s-maxage=2, min-fresh=3, stale-while-revalidate=4, stale-if-error=5")
        #expect(cc.maxAge == .seconds(1))
        #expect(cc.sharedMaxAge == .seconds(2))
        #expect(cc.minFresh == .seconds(3))
        #expect(cc.staleWhileRevalidate == .seconds(4))
        #expect(cc.staleIfError == .seconds(5))
        #expect(cc.extensions.isEmpty)
    }

    @Test("§5.2.3 unknown extension directives are kept with their arguments")
    func extensionsKept() {
        let cc = CacheControl(#"community="UCI", foo, max-age=1, Bar=Baz"#)
        #expect(cc.extensions == [Directive(name: "community", value: "UCI"), Directive(name: "foo", value: nil), Directive(name: "bar", value: "Baz")])
        #expect(cc.maxAge == .seconds(1))
    }

    @Test("§5.2.2.4 no-cache with field names is qualified (names lower-cased)")
    func noCacheQualified() {
        #expect(CacheControl(#"no-cache="Set-Cookie""#).noCache == .fields(["set-cookie"]))
        #expect(CacheControl(#"no-cache="Set-Cookie""#).noCache.isPresent)
    }

    @Test("§5.2.2.4 no-cache without arguments is unqualified")
    func noCacheUnqualified() {
        #expect(CacheControl("no-cache").noCache == .unqualified)
    }

    @Test("§5.2.2.4 an unqualified no-cache beside a qualified one wins (the stricter reading)")
    func noCacheMixed() {
        #expect(CacheControl(#"no-cache="X-A", no-cache"#).noCache == .unqualified)
    }

    @Test("§5.2.2.4 qualified no-cache occurrences combine their field names")
    func noCacheCombined() {
        #expect(CacheControl(#"no-cache="X-A", no-cache="X-B, X-C""#).noCache == .fields(["x-a", "x-b", "x-c"]))
    }

    @Test("§5.2.2.7 private with field names is qualified")
    func privateQualified() {
        #expect(CacheControl(#"private="X-Secret""#).privateDirective == .fields(["x-secret"]))
        #expect(CacheControl("private").privateDirective == .unqualified)
        #expect(CacheControl("public").privateDirective == .absent)
    }

    @Test(
        "§5.2.1.2 max-stale: no argument is unlimited, a number is a limit, junk is invalid",
        arguments: [
            ("max-stale", CacheControl.MaxStale.unlimited), ("max-stale=30", .seconds(30)), ("MAX-STALE=\"30\"", .seconds(30)),
            ("max-stale=abc", .invalid("abc")), ("max-stale=30, max-stale=10", .seconds(10)),
            ("max-stale=30, max-stale", .unlimited), ("max-stale=x, max-stale=y", .invalid("x,y")),
        ])
    func maxStale(field: String, expected: CacheControl.MaxStale) {
        #expect(CacheControl(field).maxStale == expected)
    }

    @Test("§5.2 description writes the directives back in field syntax")
    func description() {
        let cc = CacheControl(#"Max-Age=60, private="a, b", no-store, ext="""#)
        #expect(cc.description == #"max-age=60, private="a, b", no-store, ext="""#)
    }

    @Test("§5.2 description escapes quotes and backslashes inside quoted arguments")
    func descriptionEscapes() {
        let cc = CacheControl(#"ext="a\"b\\c""#)
        #expect(cc.description == #"ext="a\"b\\c""#)
        #expect(CacheControl(cc.description).directives == cc.directives)
    }

    @Test("§1.2.2 DeltaSeconds describes itself for reasons")
    func deltaSecondsDescription() {
        #expect(DeltaSeconds.absent.description == "absent")
        #expect(DeltaSeconds.seconds(5).description == "5")
        #expect(DeltaSeconds.invalid("x").description == #"invalid value "x""#)
        #expect(DeltaSeconds.conflicting(["1", "2"]).description == "conflicting values 1, 2")
        #expect(DeltaSeconds.seconds(5).value == 5 && DeltaSeconds.invalid("x").value == nil)
        #expect(DeltaSeconds.invalid("x").isPresent && !DeltaSeconds.absent.isPresent)
    }

    @Test("§5.2 CacheControl.knownNames lists every directive of RFC 9111, 5861 and 8246")
    func knownNames() {
        #expect(CacheControl.knownNames.count == 16)
        let all = CacheControl(CacheControl.knownNames.sorted().joined(separator: ", "))
        #expect(all.extensions.isEmpty)
        #expect(all.directives.count == 16)
    }
}
