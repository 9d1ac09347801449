import Foundation
import HTTPTypes
import NIOCore

/// Answers a connection over the limit with `503 Service Unavailable` and closes it, without
/// reading its request: the client learns why instead of seeing a reset.
final class ConnectionRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The answer as bytes, with the fields every answer of the proxy's own has (``ProxyAnswer/text(_:into:)``).
    private static func response() -> [UInt8] {
        var fields = HTTPFields()
        let body = ProxyAnswer.text("the proxy has too many open connections; try again shortly", into: &fields)
        var head = "HTTP/1.1 503 Service Unavailable\r\n"
        for field in fields { head += "\(field.name.rawName): \(field.value)\r\n" }
        head += "Content-Length: \(body.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: Self.response())
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in LingeringClose.start(context) }
    }

    /// Whatever the client sends is read and dropped until the connection closes.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
