public import HTTPTypes
import CacheEvents
public import Foundation

/// One HAR entry reduced to what running it through a cache in simulated time needs: when it
/// started (relative to the first entry), the request, the origin's response with its body
/// decoded, and how long it took.
public struct HARReplayRequest: Sendable, Hashable {
    /// The entry's position in the file.
    public var entryIndex: Int
    /// Seconds after the earliest entry started.
    public var offset: Double
    /// When it started.
    public var startDate: Date
    /// `GET`, `POST`, …
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Request header fields, without HTTP/2 pseudo-headers (`:authority`, `:path`, …).
    public var requestHeaders: HTTPFields
    /// The request body, if the HAR saved one.
    public var requestBody: Data?
    /// The response status (0 when the request failed).
    public var status: Int
    /// The reason phrase.
    public var statusText: String
    /// Response header fields, without pseudo-headers.
    public var responseHeaders: HTTPFields
    /// The response body (base64 decoded when the HAR says so), or `nil` if not saved.
    public var responseBody: Data?
    /// The body's declared size in bytes (useful when the body was not saved).
    public var responseBodySize: Int
    /// Where the time went, in milliseconds.
    public var timings: HARTimings
    /// Total seconds the request took.
    public var duration: Double
    /// The outcome CacheScope recorded (`_cacheStatus`), when the HAR came from an export.
    public var recordedCacheStatus: String?
}

extension HARArchive {
    /// The entries as replayable requests, ordered by start time (file order among equal
    /// times). Entries whose `startedDateTime` cannot be read are left out (``HARReader``
    /// rejects such files, so this only happens for archives built in code).
    public func replayRequests() -> [HARReplayRequest] {
        let dated = log.entries.enumerated().compactMap { index, entry in entry.startDate.map { (index, entry, $0) } }
        guard let first = dated.map(\.2).min() else { return [] }
        return dated
            .sorted { $0.2 != $1.2 ? $0.2 < $1.2 : $0.0 < $1.0 }
            .map { index, entry, start in
                HARReplayRequest(
                    entryIndex: index, offset: start.timeIntervalSince(first), startDate: start,
                    method: entry.request.method, url: entry.request.url,
                    requestHeaders: Self.fields(entry.request.headers),
                    requestBody: entry.request.postData?.text.map { Data($0.utf8) },
                    status: entry.response.status, statusText: entry.response.statusText,
                    responseHeaders: Self.fields(entry.response.headers),
                    responseBody: entry.response.content.body, responseBodySize: entry.response.content.size,
                    timings: entry.timings, duration: max(entry.time, 0) / 1000, recordedCacheStatus: entry.cacheStatus)
            }
    }

    private static func fields(_ pairs: [HARNameValue]) -> HTTPFields {
        HTTPFields(pairs.compactMap { HTTPField(recordedName: $0.name, value: $0.value) })
    }
}
