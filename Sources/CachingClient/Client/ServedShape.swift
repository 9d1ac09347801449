package import HTTPTypes

/// How a caller answers what the cache served when it does not send it as it is — a proxy's
/// 304 to its own client's conditional request, a 206 for its `Range`, no body for its HEAD —
/// given the served status, header fields, body bytes, whether it came from the store and
/// whether its body is still streaming from the origin (too large to store); it
/// returns the status and body bytes its client gets, which the `served` and
/// `requestFinished` events then report (so the summary, the metrics and the dashboard count
/// what was sent).
package typealias ServedShape = @Sendable (_ status: Int, _ headers: HTTPFields, _ bytes: Int, _ fromStore: Bool, _ streamed: Bool) -> (
    status: Int, bytes: Int
)
