import Synchronization

/// What a request made with ``CachingClient/stream(for:body:length:policy:)`` carries through
/// the client: the request body to stream to the origin, and — once the origin's response
/// proved too large to collect for the store — that response's body, passed through to the
/// caller instead.
///
/// One per request, made by the caller's task; the origin exchange that fills it runs in the
/// same task (the coalescer's leader fetches in the task that asked), so the `Mutex` is
/// never contended: it is there because the request's `RequestRun` crosses into the
/// coalescer's closure.
final class StreamingExchange: Sendable {
    /// The request body, read once as it is sent.
    let requestBody: BodyStream?
    /// Its length in bytes, when known (then it is sent with `Content-Length`).
    let requestLength: Int?
    private let passedThrough = Mutex<PassedThrough?>(nil)

    /// A response body handed to the caller as it arrives, and the store's limit it exceeded.
    struct PassedThrough: Sendable {
        let body: BodyStream
        let limit: Int
    }

    init(requestBody: BodyStream?, requestLength: Int?) {
        self.requestBody = requestBody
        self.requestLength = requestLength
    }

    /// Hands the origin's body to the caller uncollected: it is larger than `limit`, the most
    /// the store would keep.
    func passThrough(_ body: BodyStream, limit: Int) {
        passedThrough.withLock { $0 = PassedThrough(body: body, limit: limit) }
    }

    /// The body passed through, if the response's was.
    var passedThroughBody: PassedThrough? { passedThrough.withLock { $0 } }
}
