import Testing
@testable import HTTPCaching

/// The plain-words explanations of Cache-Control directives shown by the dashboard and `get`.
@Suite("Cache-Control explanations")
struct ExplanationTests {
    @Test(
        "§5.2 every known directive is explained in its own words",
        arguments: [
            ("max-age=60", "max-age=60: fresh for 1m after it was generated (in a request: accept nothing older)"),
            ("s-maxage=3600", "s-maxage=3600: shared caches: fresh for 1h; overrides max-age and Expires there"),
            ("min-fresh=30", "min-fresh=30: the client wants at least 30s of freshness left"),
            ("max-stale", "max-stale: the client accepts a stale response, however stale"),
            ("max-stale=90", "max-stale=90: the client accepts up to 1m30s of staleness"),
            ("stale-while-revalidate=30", "stale-while-revalidate=30: may be served up to 30s stale while it is refreshed in the background"),
            ("stale-if-error=86400", "stale-if-error=86400: may be served up to 1d stale when the origin fails"),
            ("no-cache", "no-cache: may be stored, but must be revalidated with the origin before every use"),
            (#"no-cache="Set-Cookie""#, "no-cache=Set-Cookie: the listed fields (Set-Cookie) must not be reused without revalidation"),
            ("no-store", "no-store: must not be stored at all"),
            ("private", "private: for one user only: shared caches must not store it"),
            (#"private="X-A, X-B""#, #"private="X-A, X-B": shared caches must not store the fields X-A, X-B"#),
            ("public", "public: any cache may store it, even where it normally would not"),
            ("must-revalidate", "must-revalidate: once stale, never served without asking the origin"),
            ("proxy-revalidate", "proxy-revalidate: like must-revalidate, for shared caches only"),
            ("must-understand", "must-understand: store only if the cache understands the status code"),
            ("no-transform", "no-transform: intermediaries must not change the content"),
            ("only-if-cached", "only-if-cached: the client wants a stored response only; no network (504 otherwise)"),
            ("immutable", "immutable: will not change while fresh: no revalidation on reload"),
        ])
    func explained(field: String, text: String) {
        #expect(CacheControl(field).explanations == [text])
    }

    @Test("§5.2.3 an extension is explained as not acted on")
    func extensionExplained() {
        #expect(CacheControl("community=UCI").explanations == ["community=UCI: an extension this cache does not act on"])
    }

    @Test("§4.2.1 an invalid duration is explained as treated as stale")
    func invalidDuration() {
        #expect(CacheControl("max-age=soon").explanations == ["max-age=soon: fresh for an invalid time (treated as stale) after it was generated (in a request: accept nothing older)"])
    }

    @Test("explanations follow the field order, one per directive")
    func order() {
        let lines = CacheControl("max-age=60, must-revalidate").explanations
        #expect(lines == [
            "max-age=60: fresh for 1m after it was generated (in a request: accept nothing older)",
            "must-revalidate: once stale, never served without asking the origin",
        ])
    }

    @Test(
        "humanDuration uses at most two units",
        arguments: [
            (0, "0s"), (59, "59s"), (60, "1m"), (90, "1m30s"), (3600, "1h"), (3661, "1h1m"), (3601, "1h1s"), (86_400, "1d"),
            (90_061, "1d1h"), (2_147_483_648, "24855d3h"),
        ])
    func humanDuration(seconds: Int, text: String) {
        #expect(CacheControl.humanDuration(seconds) == text)
    }
}
