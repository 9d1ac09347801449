import CacheEvents
import CachingClient
import SessionLog
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

/// A ``Transport`` that answers from a HAR capture instead of the network, behaving like an
/// origin that honours validators: a conditional request whose validator matches the captured
/// response gets a 304; a capture that holds a 304 where the cache needs the whole response is
/// answered with the last complete response captured for that URL.
final class HARTransport: Transport {
    private let requests: [HARReplayRequest]
    private let current = Mutex(0)

    private let clock: SimulatedClock

    init(requests: [HARReplayRequest], clock: SimulatedClock) {
        self.requests = requests
        self.clock = clock
    }

    /// Makes the entry at `index` the one being replayed.
    func setCurrent(_ index: Int) { current.withLock { $0 = index } }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        let url = CachingClient.url(of: request)
        let index = current.withLock { $0 }
        guard let entryIndex = entry(for: url, method: request.method.rawValue, upTo: index) else {
            throw TransportError.connectionFailed(url: url, detail: "the capture holds no response for this URL")
        }
        let entry = requests[entryIndex]
        // The answer arrives when the capture says it did: what the client publishes after it
        // is stamped at the entry's end.
        clock.set(requests[index].startDate.addingTimeInterval(requests[index].duration))
        guard entry.status > 0 else {
            throw TransportError.connectionFailed(url: url, detail: "the request failed when it was captured")
        }
        var status = entry.status
        var fields = entry.responseHeaders
        var responseBody = entry.responseBody ?? Data()
        let conditional = request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil
        if status == 304, !conditional, let full = lastComplete(for: url, before: entryIndex) {
            status = full.status
            responseBody = full.responseBody ?? Data()
            var merged = full.responseHeaders
            for field in fields where field.name != .contentLength { merged[field.name] = field.value }
            fields = merged
        } else if status == 200, conditional, Self.validatorMatches(request.headerFields, fields, now: captureTime(index, entry)) {
            status = 304
            responseBody = Data()
            fields[.contentLength] = nil
        }
        let response = HTTPResponse(status: .init(code: status, reasonPhrase: status == entry.status ? entry.statusText : ""), headerFields: fields)
        return TransportResponse(response: response, body: responseBody)
    }

    func shutdown() async throws {}

    // MARK: Matching

    private func entry(for url: String, method: String, upTo index: Int) -> Int? {
        let key = CacheKey(method: method, uri: url)
        if requests.indices.contains(index), CacheKey(method: requests[index].method, uri: requests[index].url) == key {
            return index
        }
        return requests.indices.prefix(index + 1).last { CacheKey(method: requests[$0].method, uri: requests[$0].url) == key }
    }

    private func lastComplete(for url: String, before index: Int) -> HARReplayRequest? {
        let key = CacheKey(method: "GET", uri: url)
        return requests.prefix(index).last { $0.status == 200 && CacheKey(method: "GET", uri: $0.url) == key }
    }

    /// "Now" of the replay: the simulated clock stands at the current entry's start.
    private func captureTime(_ index: Int, _ entry: HARReplayRequest) -> Date {
        requests.indices.contains(index) ? requests[index].startDate : entry.startDate
    }

    private static func validatorMatches(_ request: HTTPFields, _ response: HTTPFields, now: Date) -> Bool {
        if let ifNoneMatch = request[.ifNoneMatch] {
            guard let tag = response[.eTag].flatMap({ EntityTag(parsing: $0) }) else { return false }
            return EntityTagList(parsing: ifNoneMatch).containsWeakMatch(for: tag)
        }
        guard let since = request[.ifModifiedSince].flatMap({ HTTPDate.parse($0, reference: now) }),
            let modified = response[.lastModified].flatMap({ HTTPDate.parse($0, reference: now) })
        else { return false }
        return modified <= since
    }

}
