public import Foundation

/// What ``CachingClient/stream(for:body:length:policy:)`` returns: the response and what the
/// cache did, with a body that is either complete or still arriving from the origin.
public struct StreamedClientResponse: Sendable {
    /// The response, outcome and reason, as ``CachingClient/data(for:body:policy:)`` gives them;
    /// its `body` is empty when ``body`` is ``Body/streaming(_:)``.
    public let result: ClientResponse
    /// The body.
    public let body: Body

    /// A response body: whole, or still arriving.
    public enum Body: Sendable {
        /// The whole body: from the store, or collected from the origin (to be stored, or
        /// small enough to collect).
        case complete(Data)
        /// The origin's body as it arrives, read once: it was larger than the store keeps, so
        /// it was neither collected nor stored. `served` and `requestFinished` were published
        /// when its head arrived, with no body bytes counted.
        case streaming(BodyStream)
    }
}
