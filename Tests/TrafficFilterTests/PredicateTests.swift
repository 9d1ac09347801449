import CacheStore
import Testing
import TrafficFilter

@Suite("Filter predicates")
struct PredicateTests {
    @Test("each predicate against a finished miss", arguments: [
        ("outcome:miss", true), ("outcome:hit", false), ("outcome=MISS", true),
        ("reason:\"not in\"", true), ("reason:cache", true), ("reason=\"not in cache\"", true), ("reason=cache", false),
        ("reason~^not", true), ("reason~^cache", false),
        ("status>=500", false), ("status<300", true), ("status:200", true), ("status=200", true), ("status>200", false),
        ("status<=200", true),
        ("method:get", true), ("method:POST", false), ("method=GET", true),
        ("url~items\\?id=[0-9]+$", true), ("url~^https://api", true), ("url~/v2/", false), ("url:V1/ITEMS", true),
        ("items", true), ("\"items?id=7\"", true), ("/v2/", false),
        ("host:example.com", true), ("host=api.example.com", true), ("host:8443", false), ("host~^api\\.", true),
        ("ttl<30s", false), ("ttl>=1m", true), ("ttl:60", true), ("ttl<1.5m", true),
        ("age>5m", false), ("age<=0", true),
        ("size>1MB", false), ("size>=2KB", true), ("size:2048B", true), ("size<2kb", false),
        ("tier:disk", false),
        ("h:cache-control~no-cache", false), ("h:cache-control~max-age", true), ("h:Cache-Control:MAX", true),
        ("h:cache-control", true), ("h:etag", false), ("h:content-type=application/json", true),
        ("bg", false), ("!bg", true),
    ])
    func requestPredicates(expression: String, expected: Bool) throws {
        #expect(try matches(expression, .miss) == expected, "\(expression)")
    }

    @Test("each predicate against a stored entry", arguments: [
        ("tier:disk", true), ("tier:memory", false), ("tier:both", false),
        ("ttl<0", true), ("ttl<-5s", true), ("ttl>-5s", false),
        ("age>5m", false), ("age>=5m", true), ("age>4m", true), ("age<1h", true), ("age>0.05h", true),
        ("size>1MB", true), ("size>3MB", false), ("size:3MB", true),
        ("host:cdn", true), ("app.js", true), ("url~\\.js$", true),
        // Fields an entry does not have never match, and their negation always does.
        ("outcome:miss", false), ("!outcome:miss", true), ("reason:x", false), ("h:etag", false), ("bg", false),
        ("!bg", true),
    ])
    func entryPredicates(expression: String, expected: Bool) throws {
        #expect(try matches(expression, .entry) == expected, "\(expression)")
    }

    @Test("tier:memory and tier:disk match entries in both tiers; tier:both only those")
    func tiers() throws {
        let both = Row.entry.with { $0.filterTier = .both }
        #expect(try matches("tier:memory", both))
        #expect(try matches("tier:disk", both))
        #expect(try matches("tier:both", both))
        #expect(try !matches("tier:both", Row.entry))
        #expect(try matches("tier:memory", Row.entry.with { $0.filterTier = .memory }))
    }

    @Test("units: s m h d for durations, B KB MB GB TB (1024-based) for sizes, any case", arguments: [
        ("ttl:90s", 90.0), ("ttl:1.5m", 90), ("ttl:2h", 7200), ("ttl:45", 45), ("ttl:2H", 7200), ("ttl:2d", 172_800),
        ("size:1kb", 1024), ("size:1KB", 1024), ("size:1mb", 1_048_576), ("size:2GB", 2_147_483_648), ("size:10B", 10),
        ("size:10", 10), ("size:1TB", 1_099_511_627_776),
    ])
    func units(expression: String, value: Double) throws {
        let row: Row = expression.hasPrefix("ttl")
            ? Row().with { $0.filterTTL = value }
            : Row().with { $0.filterSize = Int(value) }
        #expect(try matches(expression, row))
    }

    /// What the dashboard shows can be typed back: its TTLs and ages (`Format.duration`: `3m12s`,
    /// `1d3h`) and its sizes (`1.2 KiB` in the header, `34M` in narrow columns).
    @Test("values as the dashboard writes them", arguments: [(String, Double)]([
        ("ttl:3m12s", 192.0), ("ttl:1d3h", 97_200), ("ttl:2h5m", 7500), ("ttl:1m30", 90), ("age:-1m", -60),
        ("size:1KiB", 1024.0), ("size:34M", 35_651_584.0), ("size:1.5k", 1536), ("size:2mib", 2_097_152), ("size:1G", 1_073_741_824),
    ]))
    func dashboardSpellings(expression: String, value: Double) throws {
        let row: Row = expression.hasPrefix("ttl") ? Row().with { $0.filterTTL = value }
            : expression.hasPrefix("age") ? Row().with { $0.filterAge = value }
            : Row().with { $0.filterSize = Int(value) }
        #expect(try matches(expression, row))
        // The value is exact: one unit more does not match.
        let other: Row = expression.hasPrefix("size") ? Row().with { $0.filterSize = Int(value) + 1 } : Row().with {
            $0.filterTTL = value + 1
            $0.filterAge = value + 1
        }
        #expect(try !matches(expression, other))
    }

    @Test("a request still in flight has no outcome or status yet")
    func inFlight() throws {
        let row = Row(filterReason: "lookup fresh", filterMethod: "GET", filterURL: "http://x/")
        #expect(try !matches("outcome:miss", row))
        #expect(try !matches("status<500", row))
        #expect(try matches("reason:lookup", row))
    }

    @Test("text compares ignoring case, also beyond ASCII")
    func caseFolding() throws {
        let row = Row(filterURL: "https://example.com/ÉTÉ/Straße")
        #expect(try matches("url:été", row))
        #expect(try matches("\"/été/straße\"", row))
        #expect(try matches("url~\"strasse|straße\"", row))
    }

    @Test("the host comes from the URL: user info, port and path are not part of it", arguments: [
        ("https://user@Example.com:8443/a?b#c", "Example.com"), ("http://[::1]:8080/x", "[::1]"),
        ("http://localhost", "localhost"), ("not a url", nil),
    ])
    func host(url: String, host: String?) {
        #expect(URLHost.of(url).map(String.init) == host)
    }
}
