import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes

/// One request's trip through the cache: forwards it with ``CachingClient/data(for:body:policy:)``
/// and turns the result — or the failure — into the response the client gets.
///
/// A request the memory tier answers at once (``immediateAnswer(_:)``) is answered on the
/// connection's event loop; any other runs in a task of its own (``answer(_:)``), off the event
/// loop. Either way the connection's handler writes the answer.
struct ProxyExchange: Sendable {
    let client: CachingClient
    let origin: ProxyOrigin
    /// The proxy's name in `Via` and `Cache-Status`.
    let name: String
    /// `Cache-Status` values written so far (named `name`).
    let cacheStatusValues: CacheStatusValues
    /// Whether ``immediateAnswer(_:)`` answers at all
    /// (``CachingProxyConfiguration/answersHitsOnEventLoop``).
    var answersImmediately = false

    /// The clock the served events and the answers are judged by (the client's).
    private var now: @Sendable () -> Date { client.configuration.now }

    /// The answer to `request`; never throws: every failure is a response (502, 504, …).
    func answer(_ request: IncomingRequest) async -> ProxyAnswer {
        let outgoing = request.forwarded(to: origin, pseudonym: name)
        do {
            let streamed = try await client.stream(
                for: outgoing, body: request.body, length: request.bodyLength, policy: nil, shape: DownstreamForm.shape(for: request, now: now))
            switch streamed.body {
            case .complete: return answer(for: streamed.result, passedThrough: nil, to: request)
            case .streaming(let parts): return answer(for: streamed.result, passedThrough: parts, to: request)
            }
        } catch let error as CachingClientError {
            return failure(error)
        } catch is CancellationError {
            return .local(.serviceUnavailable, "the proxy is shutting down", close: true, outcome: "error")
        } catch {
            return .local(.badGateway, "the origin request failed: \(error)", close: false, outcome: "error")
        }
    }

    /// The answer to a bodiless GET or HEAD when the cache's memory tier can give it without
    /// waiting for anything (``CachingClient/immediateResponse(for:policy:)``: a fresh hit, the
    /// common case); `nil` for every other request, which then goes through ``answer(_:)``.
    ///
    /// Meant for the connection's event loop: a hit then crosses no thread and starts no task.
    func immediateAnswer(_ request: IncomingRequest) -> ProxyAnswer? {
        guard answersImmediately, request.body == nil, request.method == .get || request.method == .head else { return nil }
        let shape = DownstreamForm.shape(for: request, now: now)
        guard let result = client.immediateResponse(for: request.forwarded(to: origin, pseudonym: name), policy: nil, shape: shape) else { return nil }
        return answer(for: result, passedThrough: nil, to: request)
    }

    /// The client's response as sent downstream: hop-by-hop fields removed, `Date` added when
    /// the origin sent none (RFC 9110 §6.6.1), `Via` and `Cache-Status` appended. `Age` comes
    /// from the client, set on every response served from the store. A 200 the client's own
    /// `If-None-Match` / `If-Modified-Since` says it already has becomes a 304; a GET's single
    /// `Range` is answered 206 (or 416) from the complete 200 (``RangeRequest``). A body still
    /// arriving (too large to store) goes as it arrives, its `Range` ignored (RFC 9110 §14.2
    /// lets a server do so); a HEAD drops it unread.
    /// `passedThrough`: the body still arriving, when it was too large to store.
    private func answer(for result: ClientResponse, passedThrough: BodyStream?, to request: IncomingRequest) -> ProxyAnswer {
        let mayHaveBody = result.response.status.mayHaveContent
        // A HEAD keeps the origin's Content-Length (the size a GET would get); otherwise the
        // length is the body's, set when it is written.
        let now = client.configuration.now()
        var fields = HopByHopFields.removing(
            from: result.response.headerFields, alsoRemoving: request.method == .head ? [] : ["content-length"])
        if !fields.contains(.date) { fields[.date] = HTTPDate.format(now) }
        fields = HopByHopFields.addingVia(fields, protocolVersion: "1.1", pseudonym: name)
        if let location = fields[.location], let relative = OriginLocation.relative(location, from: origin) { fields[.location] = relative }
        if let status = cacheStatusValues.value(for: CacheStatus(result, method: request.method)) {
            fields.append(HTTPField(name: .cacheStatus, value: status))
        }
        if result.outcome == .error {
            // `only-if-cached` with nothing usable (RFC 9111 §5.2.1.7): the 504 is the proxy's own
            // answer, so it says what happened and is never stored.
            let message = ProxyAnswer.text(
                "nothing usable is stored for this request, and only-if-cached does not allow asking the origin", into: &fields)
            // A HEAD gets the length a GET's body would have (the framing is the handler's).
            if request.method == .head { fields[.contentLength] = String(message.count) }
            return ProxyAnswer(
                response: HTTPResponse(status: result.response.status, headerFields: fields), body: request.method == .head ? Data() : message,
                closeConnection: false, outcome: result.outcome.rawValue, reason: result.reason)
        }
        let response = HTTPResponse(status: result.response.status, headerFields: fields)
        let sendsBody = request.method != .head && mayHaveBody
        let body = sendsBody && passedThrough == nil ? result.body : Data()
        // The same form the client's served events counted (``DownstreamForm/shape(for:now:)``).
        switch DownstreamForm.of(
            request, response: response, fromStore: result.outcome.servedFromCache, length: body.count, streamed: passedThrough != nil, now: now)
        {
        case .notModified:
            return ProxyAnswer(
                response: ConditionalRequest.make304(from: response), body: Data(), closeConnection: false, outcome: result.outcome.rawValue,
                reason: result.reason + "; 304 to the client's conditional request")
        case .range(let range):
            if let (partial, part) = RangeRequest.response(range, from: response, body: body) {
                return ProxyAnswer(
                    response: partial, body: part, closeConnection: false, outcome: result.outcome.rawValue,
                    reason: result.reason + "; \(partial.status.code) for the client's Range")
            }
        case .whole:
            break
        }
        if let parts = passedThrough, sendsBody {
            let length = result.response.headerFields[.contentLength].flatMap { Int($0, radix: 10) }
            return ProxyAnswer(
                response: response, body: Data(), closeConnection: false, outcome: result.outcome.rawValue, reason: result.reason,
                streamed: (parts, length))
        }
        return ProxyAnswer(
            response: response, body: body, closeConnection: false, outcome: result.outcome.rawValue, reason: result.reason)
    }

    /// 502 when the origin cannot be reached or its answer cannot be used, 504 when it does not
    /// answer in time; a stale response has already stood in where `stale-if-error` allowed.
    private func failure(_ error: CachingClientError) -> ProxyAnswer {
        switch error {
        case .transport(.timedOut):
            return failure(.gatewayTimeout, error, detail: "origin-timeout")
        case .transport(.connectionFailed):
            return failure(.badGateway, error, detail: "origin-unreachable")
        case .transport(.bodyTooLarge):
            return failure(.badGateway, error, detail: "response-too-large")
        case .transport(.invalidRequest):
            return .local(.badRequest, "the request cannot be forwarded: \(error)", close: false, outcome: "rejected")
        case .transport(.requestBodyStalled(_, let after)):
            // The client stopped sending its body (RFC 9110 §15.5.9); the rest cannot be read.
            return .local(.requestTimeout, "the request's body stopped arriving: nothing of it for \(after)", close: true, outcome: "rejected")
        case .transport(.other), .transport(.connectionClosed):
            return failure(.badGateway, error, detail: "origin-error")
        case .notCached:
            return .local(.gatewayTimeout, error.description, cacheStatus: nil, close: false, outcome: "error")
        case .shutDown:
            return .local(.serviceUnavailable, "the proxy is shutting down", close: true, outcome: "error")
        case .invalidURL, .tooManyRedirects, .nothingToRefresh:  // the last from a refresh command only, never a request
            return failure(.badGateway, error, detail: "origin-error")
        }
    }

    private func failure(_ status: HTTPResponse.Status, _ error: CachingClientError, detail: String) -> ProxyAnswer {
        .local(
            status, "\(status.code) \(status.reasonPhrase): \(error)",
            cacheStatus: cacheStatusValues.value(for: CacheStatus(failure: detail)), close: false, outcome: "error")
    }
}
