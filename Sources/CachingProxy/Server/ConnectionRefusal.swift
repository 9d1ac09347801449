import Foundation
import HTTPCaching
import NIOCore

/// Answers a connection over the limit with `503 Service Unavailable` and closes it, without
/// reading its request: the client learns why instead of seeing a reset.
final class ConnectionRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let body = "the proxy has too many open connections; try again shortly\n"

    /// The answer, with the proxy's own answers' fields: no-store, and a Date (RFC 9110 §6.6.1).
    private static func response(at date: Date) -> String {
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nDate: \(HTTPDate.format(date))\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(string: Self.response(at: Date()))
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in LingeringClose.start(context) }
    }

    /// Whatever the client sends is read and dropped until the connection closes.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
