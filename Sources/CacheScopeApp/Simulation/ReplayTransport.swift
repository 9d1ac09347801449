import CacheEvents
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Synchronization

/// A ``Transport`` that answers from a recording (a HAR capture or a session log) instead of
/// the network, behaving like an origin that honours validators: a conditional request whose
/// validator matches the recorded response gets a 304; a recorded 304 where the cache needs the
/// whole response is answered with the last complete response recorded for that URL; a request
/// the recorded cache answered itself gets the origin's latest answer for its URL, dated now.
final class ReplayTransport: Transport {
    private let exchanges: [SimulatedExchange]
    /// Each exchange's cache key, computed once (`nil` for a URL that has none).
    private let keys: [CacheKey?]
    /// For each exchange, the latest earlier exchange of the same URL with a complete (200)
    /// response: what stands in for a 304 or for an answer that was not recorded.
    private let previousComplete: [Int?]
    /// For each exchange, the first exchange at or after it with a complete response for its
    /// URL: the stand-in when nothing came before (the recorded cache held it already).
    private let nextComplete: [Int?]
    private let current = Mutex(0)
    private let clock: SimulatedClock

    init(exchanges: [SimulatedExchange], clock: SimulatedClock) {
        self.exchanges = exchanges
        self.clock = clock
        var getKeyByURL: [String: CacheKey?] = [:]
        let completeKeys = exchanges.map { exchange in getKeyByURL.memo(exchange.url) { CacheKey(method: "GET", uri: exchange.url) } }
        let keys = zip(exchanges, completeKeys).map { exchange, getKey in
            exchange.method == "GET" || exchange.method == "HEAD" ? getKey : CacheKey(method: exchange.method, uri: exchange.url)
        }
        let isComplete = exchanges.map { $0.response?.status == 200 }
        var previous = [Int?](repeating: nil, count: exchanges.count)
        var latest: [CacheKey: Int] = [:]
        for index in exchanges.indices {
            guard let key = completeKeys[index] else { continue }
            previous[index] = latest[key]
            if isComplete[index] { latest[key] = index }
        }
        var next = [Int?](repeating: nil, count: exchanges.count)
        latest = [:]
        for index in exchanges.indices.reversed() {
            guard let key = completeKeys[index] else { continue }
            if isComplete[index] { latest[key] = index }
            next[index] = latest[key]
        }
        self.keys = keys
        self.previousComplete = previous
        self.nextComplete = next
    }

    /// Makes the exchange at `index` the one being replayed.
    func setCurrent(_ index: Int) { current.withLock { $0 = index } }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        let url = CachingClient.url(of: request)
        let index = current.withLock { $0 }
        guard let entryIndex = exchange(for: url, method: request.method.rawValue, upTo: index) else {
            throw TransportError.connectionFailed(url: url, detail: "the recording holds no response for this URL")
        }
        // The answer arrives when the recording says it did: what the client publishes after
        // it is stamped then.
        clock.set(exchanges[index].endDate)
        let recorded: RecordedResponse
        switch exchanges[entryIndex].answer {
        case .failed:
            throw TransportError.connectionFailed(url: url, detail: "the request failed when it was recorded")
        case .response(let response):
            recorded = response
        case .notRecorded:
            guard let source = previousComplete[entryIndex] ?? nextComplete[entryIndex], var stand = exchanges[source].response else {
                throw TransportError.connectionFailed(url: url, detail: "the recording holds no answer of the origin for this URL")
            }
            stand.headers[.date] = HTTPDate.format(clock.now)  // an origin answering now dates its answer now
            recorded = stand
        }
        var status = recorded.status
        var fields = recorded.headers
        var responseBody = recorded.bodyOrPlaceholder
        let conditional = request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil
        if status == 304, !conditional, let full = previousComplete[entryIndex].flatMap({ exchanges[$0].response }) {
            status = full.status
            responseBody = full.bodyOrPlaceholder
            var merged = full.headers
            for field in fields where field.name != .contentLength { merged[field.name] = field.value }
            fields = merged
        } else if status == 200, conditional, Self.validatorMatches(request.headerFields, fields, now: exchanges[index].startDate) {
            status = 304  // its body goes below, with every status that has none
            fields[.contentLength] = nil
        }
        // No body where HTTP has none, whatever size the capture gives (DevTools writes a
        // 304's cached size in `content.size`): it must not count as bytes from the origin.
        if request.method == .head || !HTTPResponse.Status(code: status).mayHaveContent { responseBody = Data() }
        let reasonPhrase = status == recorded.status ? recorded.statusText : ""
        return TransportResponse(response: HTTPResponse(status: .init(code: status, reasonPhrase: reasonPhrase), headerFields: fields), body: responseBody)
    }

    func shutdown() async throws {}

    // MARK: Matching

    private func exchange(for url: String, method: String, upTo index: Int) -> Int? {
        let key = CacheKey(method: method, uri: url)
        if exchanges.indices.contains(index), keys[index] == key { return index }
        return exchanges.indices.prefix(index + 1).last { keys[$0] == key }
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
