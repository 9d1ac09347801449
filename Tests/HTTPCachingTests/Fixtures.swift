import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// Fixed instants and builders shared by the suites.
///
/// Every time is an offset in seconds from ``t0``, so a test reads as a timeline:
/// "requested at 0, received at 0, asked again at 100".
enum Fixture {
    /// `Wed, 01 Jan 2025 12:00:00 GMT`.
    static let t0 = Date(timeIntervalSince1970: 1_735_732_800)

    /// The instant `offset` seconds after ``t0``.
    static func at(_ offset: Double) -> Date { t0.addingTimeInterval(offset) }

    /// ``at(_:)`` as an IMF-fixdate.
    static func httpDate(_ offset: Double) -> String { HTTPDate.format(at(offset)) }

    /// The resource most tests store and ask for.
    static let uri = "https://example.com/articles/1"
    /// Its primary key.
    static let key = CacheKey(method: "GET", uri: uri)!

    static let privateCache = CacheRules()
    static let sharedCache = CacheRules(configuration: CacheRulesConfiguration(mode: .shared))

    // MARK: Header fields

    /// Header fields from `"Name: value"` lines, in order (repeated names stay separate lines).
    static func fields(_ lines: [String]) -> HTTPFields {
        var fields = HTTPFields()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                preconditionFailure("fixture line without a valid field name: \(line)")
            }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
            fields.append(HTTPField(name: name, value: String(value)))
        }
        return fields
    }

    // MARK: Requests and responses

    /// A request for `https://example.com<path>` with the given header lines.
    static func request(
        _ method: HTTPRequest.Method = .get, path: String = "/articles/1", _ lines: [String] = []
    ) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: "example.com", path: path, headerFields: fields(lines))
    }

    /// `GET /articles/1` with the given header lines.
    static func get(_ lines: String...) -> HTTPRequest { request(.get, lines) }

    /// A response with a status and header lines.
    static func response(_ status: Int = 200, _ lines: String...) -> HTTPResponse {
        HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields(lines))
    }

    /// A stored response to `GET /articles/1`.
    ///
    /// - Parameters:
    ///   - lines: its header lines.
    ///   - status: its status code.
    ///   - requested: when its request was sent (seconds after ``t0``).
    ///   - received: when it arrived.
    ///   - date: the `Date` field to add unless `lines` has one; `nil` adds none.
    ///   - requestLines: the header lines of the request that produced it (for `Vary`).
    static func stored(
        _ lines: String..., status: Int = 200, requested: Double = 0, received: Double = 0,
        date: Double? = 0, requestLines: [String] = []
    ) -> StoredResponse {
        stored(lines: lines, status: status, requested: requested, received: received, date: date, requestLines: requestLines)
    }

    /// ``stored(_:status:requested:received:date:requestLines:)`` with the lines in an array.
    static func stored(
        lines: [String], status: Int = 200, requested: Double = 0, received: Double = 0,
        date: Double? = 0, requestLines: [String] = []
    ) -> StoredResponse {
        var all = lines
        if let date, !lines.contains(where: { $0.lowercased().hasPrefix("date:") }) {
            all.append("Date: \(httpDate(date))")
        }
        let response = HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields(all))
        return StoredResponse(
            key: key, response: response, requestTime: at(requested), responseTime: at(received),
            varyKey: VaryKey(responseHeaders: response.headerFields, requestHeaders: fields(requestLines)))
    }

    // MARK: Decisions

    /// The decision for `request` at `now` seconds after ``t0``.
    static func decide(
        _ candidates: [StoredResponse], request: HTTPRequest = get(), policy: CachePolicy = .useProtocolCachePolicy,
        at now: Double, rules: CacheRules = privateCache
    ) -> CacheDecision {
        rules.decide(request: request, policy: policy, candidates: candidates, now: at(now))
    }

    /// The revalidation `decision` asks for; nil, with an issue recorded, for any other decision.
    static func revalidation(_ decision: CacheDecision, sourceLocation: SourceLocation = #_sourceLocation) -> Revalidation? {
        guard case .revalidate(let revalidation) = decision else {
            Issue.record("expected a revalidation, got \(decision)", sourceLocation: sourceLocation)
            return nil
        }
        return revalidation
    }
}

extension CacheDecision {
    /// The case name, for compact expectations: `fresh`, `stale`, `staleWhileRevalidate`,
    /// `revalidate`, `miss`, `bypass` or `unsatisfiable`.
    var kind: String {
        switch self {
        case .fresh: return "fresh"
        case .stale: return "stale"
        case .staleWhileRevalidate: return "staleWhileRevalidate"
        case .revalidate: return "revalidate"
        case .miss: return "miss"
        case .bypass: return "bypass"
        case .unsatisfiable: return "unsatisfiable"
        }
    }

    /// `kind: reason`, e.g. `revalidate: expired 40s ago`.
    var summary: String { "\(kind): \(reason)" }
}
