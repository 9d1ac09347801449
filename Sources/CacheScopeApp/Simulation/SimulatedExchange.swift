import Foundation
import HTTPCaching
import HTTPTypes

/// One recorded request to run through a cache in simulated time, with what the origin
/// answered when it was recorded: a HAR entry, or a request of a session log.
struct SimulatedExchange: Sendable {
    /// `GET`, `POST`, …
    var method: String
    /// The absolute URL.
    var url: String
    /// The request's header fields as the caller sent them.
    var requestHeaders: HTTPFields
    /// The request body, when recorded.
    var requestBody: Data?
    /// The policy the request ran under; `nil`: the simulated client's default.
    var policy: CachePolicy?
    /// When the request started.
    var startDate: Date
    /// When the origin's answer arrived (the simulated clock jumps there when it is sent).
    var endDate: Date
    /// What the origin answered.
    var answer: Answer

    /// The origin's side of the exchange.
    enum Answer: Sendable {
        /// A response: status, reason phrase, header fields and body (or only its size, when
        /// the body was not recorded: a body of that many bytes stands in for it).
        case response(RecordedResponse)
        /// The request failed when it was recorded (no response).
        case failed
        /// The recording holds no answer of the origin for this request (the recorded cache
        /// answered it, or it shared another request's): the origin's latest answer for the
        /// same URL stands in, dated when it is sent.
        case notRecorded
    }

    /// The response recorded for the request, if one was.
    var response: RecordedResponse? {
        if case .response(let response) = answer { return response }
        return nil
    }

    /// Whether the simulation answers with a smaller body than was recorded: one whose bytes
    /// were not recorded and whose size is more than ``RecordedResponse/largestPlaceholder``,
    /// on an answer that carries a body (not a HEAD's, a 1xx, 204 or 304, whose recorded size
    /// is the stored body's).
    /// The positions in `exchanges` of those ``bodyCountedSmaller`` among the ones a
    /// simulation sent (`outcomes[i] != nil`; a left-out one is said as such).
    static func countedSmaller(_ exchanges: [SimulatedExchange], outcomes: [CacheOutcome?]) -> [Int] {
        exchanges.indices.filter { outcomes[$0] != nil && exchanges[$0].bodyCountedSmaller }
    }

    var bodyCountedSmaller: Bool {
        guard method != "HEAD", let response, response.body == nil, response.bodySize > RecordedResponse.largestPlaceholder else { return false }
        return HTTPResponse.Status(code: response.status).mayHaveContent
    }
}

/// A response of the origin as recorded.
struct RecordedResponse: Sendable {
    /// The status code.
    var status: Int
    /// The reason phrase ("" when unknown).
    var statusText: String
    /// The response's header fields.
    var headers: HTTPFields
    /// The body, when recorded.
    var body: Data?
    /// The body's size in bytes, used when the body itself was not recorded.
    var bodySize: Int

    /// The largest placeholder body: 64 MiB, the most the caching client's transport collects
    /// whole. A log that says more (an edited or damaged one) must not make the simulation
    /// allocate it.
    static let largestPlaceholder = 64 << 20

    /// The body to answer with: the recorded one, or as many zero bytes as it had (at most
    /// ``largestPlaceholder``).
    var bodyOrPlaceholder: Data { body ?? Self.zeros.prefix(min(max(0, bodySize), Self.largestPlaceholder)) }

    /// What every placeholder is cut from: one buffer of zero bytes, made on first use, whose
    /// pages the system provides only as they are read (a capture of many large bodies once
    /// took a gigabyte of memory, a placeholder each).
    private static let zeros = Data(count: largestPlaceholder)
}
