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

    /// A response body handed to the caller as it arrives, and why it was not collected (the
    /// reason its request was not stored).
    struct PassedThrough: Sendable {
        let body: BodyStream
        let reason: String
    }

    init(requestBody: BodyStream?, requestLength: Int?) {
        self.requestBody = requestBody
        self.requestLength = requestLength
    }

    /// Hands the origin's body to the caller uncollected, for `reason`: larger than the store
    /// keeps, or more than the client may collect at once (``CollectingBudget``).
    func passThrough(_ body: BodyStream, reason: String) {
        passedThrough.withLock { $0 = PassedThrough(body: body, reason: reason) }
    }

    /// The body passed through, if the response's was.
    var passedThroughBody: PassedThrough? { passedThrough.withLock { $0 } }
}
