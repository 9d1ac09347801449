import CacheStore
import HTTPCaching
import HTTPTypes
import TrafficFilter

/// A row whose every field is set by the test: nil means "does not apply".
struct Row: FilterSubject {
    var filterOutcome: CacheOutcome?
    var filterReason: String?
    var filterStatus: Int?
    var filterMethod: String?
    var filterURL: String?
    var filterTTL: Double?
    var filterAge: Double?
    var filterSize: Int?
    var filterTier: EntryTier?
    var filterIsBackground: Bool?
    var filterTags: [String]?
    var filterInstance: String?
    var headers: HTTPFields = [:]

    func filterHeaderValues(_ name: HTTPField.Name) -> [String] { headers[values: name] }

    /// A finished miss of `GET https://api.example.com:8443/v1/items?id=7`: 200, 2 KB, TTL 60 s,
    /// age 0, `Cache-Control: max-age=60`, not a background refresh.
    static let miss = Row(
        filterOutcome: .miss, filterReason: "not in cache", filterStatus: 200, filterMethod: "GET",
        filterURL: "https://api.example.com:8443/v1/items?id=7", filterTTL: 60, filterAge: 0, filterSize: 2048,
        filterIsBackground: false, headers: [.cacheControl: "max-age=60", .contentType: "application/json"])

    /// A stored entry on disk: 3 MB, stale by 10 s, age 5 minutes, no outcome, reason or headers.
    static let entry = Row(
        filterStatus: 200, filterMethod: "GET", filterURL: "https://cdn.example.com/app.js", filterTTL: -10, filterAge: 300,
        filterSize: 3 * 1024 * 1024, filterTier: .disk)

    func with(_ change: (inout Row) -> Void) -> Row {
        var copy = self
        change(&copy)
        return copy
    }
}

/// Whether `expression` parses and matches `row`.
func matches(_ expression: String, _ row: Row) throws -> Bool {
    try Filter(expression).matches(row)
}

/// The parse error of `expression`, or nil when it parses.
func parseError(_ expression: String) -> FilterParseError? {
    do {
        _ = try Filter(expression)
        return nil
    } catch {
        return error
    }
}
