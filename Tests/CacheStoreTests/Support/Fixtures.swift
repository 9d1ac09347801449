import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// Responses and requests for tests.
enum Fixtures {
    static let epoch = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func key(_ uri: String, method: String = "GET") -> CacheKey {
        CacheKey(method: method, uri: uri)!
    }

    static func request(_ uri: String, headers: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: uri)!, headerFields: headers)
    }

    /// A stored 200 response for `uri` with the given extra header fields; `requestHeaders`
    /// give the Vary-selected values.
    static func response(
        _ uri: String, status: Int = 200, headers: HTTPFields = [:], requestHeaders: HTTPFields = [:], at time: Date = epoch
    ) -> StoredResponse {
        var fields: HTTPFields = [.cacheControl: "max-age=60", .contentType: "application/octet-stream"]
        fields.append(contentsOf: headers)
        let response = HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields)
        return StoredResponse(
            key: key(uri), response: response, requestTime: time, responseTime: time,
            varyKey: VaryKey(responseHeaders: fields, requestHeaders: requestHeaders))
    }

    /// `count` bytes of a pattern that depends on `seed`.
    static func body(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
    }
}
