import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes

/// What the proxy sends its client for a response the cache gave: the response as it is, a
/// 304 to the client's own conditional request, or a part of it for the client's `Range`.
///
/// The same decision serves what is written (``ProxyExchange``) and what the served events of
/// an answer from the store count (``ServedShape``, which otherwise would report the stored
/// 200 whole); each takes it from the same request and stored fields.
enum DownstreamForm: Equatable {
    /// The response as it is (a HEAD's without its body).
    case whole
    /// `304 Not Modified`: the client already has it (RFC 9110 §13.1.1, §13.1.3).
    case notModified
    /// `206` or `416` for the client's single `Range` (``RangeRequest``).
    case range(RangeRequest.Answer)

    /// The form for `response` (its body `length` bytes, `streamed` when it is still arriving
    /// from the origin: a `Range` is then ignored, as RFC 9110 §14.2 allows).
    static func of(
        _ request: IncomingRequest, response: HTTPResponse, fromStore: Bool, length: Int, streamed: Bool, now: Date
    ) -> DownstreamForm {
        if ConditionalRequest.notModified(for: request, response: response, fromStore: fromStore, now: now) != nil { return .notModified }
        guard !streamed, request.method != .head, response.status.mayHaveContent else { return .whole }
        let range = RangeRequest.answer(to: request, response: response, length: length, now: now)
        return range == .whole ? .whole : .range(range)
    }

    /// The status and body bytes the client gets for a response of `status` with a body of
    /// `length` bytes.
    func sent(status: Int, length: Int, method: HTTPRequest.Method) -> (status: Int, bytes: Int) {
        switch self {
        case .whole, .range(.whole): return (status, method == .head ? 0 : length)
        case .notModified: return (304, 0)
        case .range(.partial(let part)): return (206, part.count)
        case .range(.unsatisfiable(let why)): return (416, method == .head ? 0 : ProxyAnswer.textLength(why.message(length: length)))
        }
    }

    /// The shape the client's served events take for `request` (see ``ServedShape``); `nil`
    /// when nothing can change the answer's form (no HEAD, no condition, no `Range`: a plain
    /// GET, the common hit, costs nothing more).
    static func shape(for request: IncomingRequest, now: @escaping @Sendable () -> Date) -> ServedShape? {
        let fields = request.fields
        guard request.method == .head || fields.contains(.ifNoneMatch) || fields.contains(.ifModifiedSince) || fields.contains(.range)
        else { return nil }
        return { status, headers, bytes, fromStore, streamed in
            let response = HTTPResponse(status: .init(code: status), headerFields: headers)
            let form = of(request, response: response, fromStore: fromStore, length: bytes, streamed: streamed, now: now())
            return form.sent(status: status, length: bytes, method: request.method)
        }
    }
}
