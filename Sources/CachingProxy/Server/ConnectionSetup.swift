import NIOCore
import NIOHTTP1

/// How each accepted connection's pipeline is built: refused with 503 past the connection
/// limit; otherwise a watch for an HTTP/0.9 first request, NIO's HTTP/1.1 server handlers (with
/// pipelining), the proxy's own protocol-error answers, and a ``ProxyHTTPHandler``.
struct ConnectionSetup: Sendable {
    let registry: ConnectionRegistry
    /// Makes the connection's request handler (one per connection, on its event loop).
    let handler: @Sendable () -> ProxyHTTPHandler
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    /// Where requests NIO's parser could not read are logged, as every other answer is.
    let accessLog: (@Sendable (ProxyAccessRecord) -> Void)?

    /// Responses are framed by ``ProxyHTTPHandler`` itself (it knows which answer a HEAD), so
    /// NIO adds no `Content-Length` or `Transfer-Encoding` of its own.
    private static let encoder: HTTPResponseEncoder.Configuration = {
        var encoder = HTTPResponseEncoder.Configuration()
        encoder.automaticallySetFramingHeaders = false
        return encoder
    }()

    /// Sets up `channel`'s pipeline; runs on its event loop.
    func configure(_ channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        guard registry.open(channel) else {
            try pipeline.addHandler(ConnectionRefusal())
            return
        }
        let registry = self.registry
        channel.closeFuture.whenComplete { _ in registry.closed(channel) }
        try pipeline.addHandler(VersionlessRequestLine(limit: decoderLimits.maxHeaderFieldSize))
        // No check of each response's header fields on the way out: every field the proxy
        // writes comes from an `HTTPFields` (whose names are tokens and whose values cannot
        // hold CR, LF or NUL) or is its own constant, and the check was 7 % of a hit's CPU.
        try pipeline.configureHTTPServerPipeline(
            withErrorHandling: false, withOutboundHeaderValidation: false, withEncoderConfiguration: Self.encoder,
            withDecoderLimitConfiguration: decoderLimits)
        try pipeline.addHandler(ProxyProtocolErrorHandler(accessLog: accessLog))
        try pipeline.addHandler(handler())
    }
}
