import CachingProxy
import NIOCore
import NIOHTTP1

/// One connection of the ``MetricsEndpoint``: `GET /metrics` (or `HEAD`) is the exposition in the
/// Prometheus text format, another path 404, another method 405.
///
/// Behind NIO's HTTP server pipeline, which answers malformed requests with 400 and holds a
/// pipelined request back until the previous answer has ended. Request bodies are dropped.
final class MetricsHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The text format's content type, version 0.0.4 (what Prometheus asks for first).
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let exposition: CacheMetricsExposition
    private var requestHead: HTTPRequestHead?

    init(exposition: CacheMetricsExposition) {
        self.exposition = exposition
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
        case .body:
            break
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            respond(to: head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The path of a request target, without its query: `/metrics` of `/metrics?x`, and of
    /// the absolute form `http://127.0.0.1:9464/metrics` (``RequestTarget``, as the proxy
    /// reads it); empty for a target in neither form.
    static func path(of target: String) -> Substring {
        let pathAndQuery = RequestTarget.pathAndQuery(of: target) ?? ""
        return pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = Self.path(of: head.uri)
        var headers = HTTPHeaders()
        let status: HTTPResponseStatus
        var body: [UInt8]
        switch (path == "/metrics", head.method) {
        case (true, .GET), (true, .HEAD):
            status = .ok
            headers.add(name: "Content-Type", value: Self.contentType)
            body = Array(exposition.text().utf8)
        case (true, _):
            status = .methodNotAllowed
            headers.add(name: "Allow", value: "GET, HEAD")
            body = Array("\(head.method.rawValue) is not allowed on /metrics: use GET\n".utf8)
        case (false, _):
            status = .notFound
            body = Array("not found: the metrics are at /metrics\n".utf8)
        }
        if status != .ok { headers.add(name: "Content-Type", value: "text/plain; charset=utf-8") }
        headers.add(name: "Content-Length", value: String(body.count))
        if head.method == .HEAD { body = [] }
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }

        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            ended.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
