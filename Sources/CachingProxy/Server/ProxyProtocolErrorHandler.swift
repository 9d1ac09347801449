import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers a request NIO's parser cannot read (and an HTTP/0.9 one, which
/// ``VersionlessRequestLine`` finds): 431 when its header section overflows the
/// parser's limits, 501 for a method the parser does not know, 400 for anything else malformed, with `Cache-Control: no-store` and a line
/// in the access log like every answer the proxy makes itself; then the connection closes
/// (the parser cannot find the next request's start). NIO's own
/// `HTTPServerProtocolErrorHandler` would answer 400 to both.
final class ProxyProtocolErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a response has started and not ended: then no error response can be written.
    private var responseInProgress = false
    private let accessLog: (@Sendable (ProxyAccessRecord) -> Void)?
    /// The request line ``VersionlessRequestLine`` found without a version, told just before
    /// the parser error it raises for it.
    private var versionlessLine: String?
    /// The connection's first request line so far, until its head is parsed: what a method the
    /// parser does not know was (``VersionlessRequestLine/LineStart``).
    private var firstLine: VersionlessRequestLine.LineStart?

    init(accessLog: (@Sendable (ProxyAccessRecord) -> Void)?) {
        self.accessLog = accessLog
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is ByteToMessageDecoderError {
            return  // bytes after the malformed request, read while the connection lingers: dropped
        }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        // The connection ended inside a request (the client hung up mid-upload, a timeout or a
        // 413 closed it): nobody is left to answer, and nothing was refused to log.
        if parserError == .invalidEOFState || !context.channel.isActive {
            context.close(promise: nil)
            return
        }
        // Bytes after a request that said `Connection: close`: the connection closes after its
        // answer, and what the client sent after it is ignored (RFC 9112 §9.6), not refused.
        if parserError == .closedConnection { return }
        if let line = versionlessLine {
            versionlessLine = nil
            refuse(
                context: context, status: .badRequest, message: "the request line '\(line)' has no HTTP version (an HTTP/0.9 request): send HTTP/1.1\n")
        } else if parserError == .invalidMethod, let method = firstLine?.method {
            // RFC 9110 §15.6.2: a method the server does not recognise is 501, not a malformed
            // request. (A line that is no request line, `HELLO THERE` or a TLS handshake, is a 400;
            // so is an unknown method after the first request of a connection, whose line only
            // the parser saw.)
            refuse(
                context: context, status: .notImplemented,
                message: "the method '\(method.prefix(40))' is not one this proxy can forward: its HTTP/1.1 parser knows the methods of "
                    + "RFC 9110, WebDAV and a few more (PATCH, PURGE, M-SEARCH, QUERY, …), not other extension methods\n")
        } else if parserError == .headerOverflow {
            refuse(
                context: context, status: .custom(code: 431, reasonPhrase: "Request Header Fields Too Large"),
                message: "the request's header section is too large\n")
        } else {
            refuse(context: context, status: .badRequest, message: "the request is not valid HTTP/1.1 (\(parserError))\n")
        }
    }

    /// Answers `status` with `message` (unless a response is under way), logs it, and ends the
    /// connection once the client has had the chance to read the answer: the parser cannot find
    /// the next request's start.
    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, message: String) {
        if !responseInProgress {
            // The fields every answer of the proxy's own has (ProxyAnswer.text), and the framing.
            let line = message.trimmingCharacters(in: .newlines)
            var fields = HTTPFields()
            let body = ProxyAnswer.text(line, into: &fields)
            var headers = HTTPHeaders()
            for field in fields { headers.add(name: field.name.rawName, value: field.value) }
            headers.add(name: "Content-Length", value: String(body.count))
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            accessLog?(ProxyAccessRecord(
                unreadableFrom: context.remoteAddress?.ipAddress ?? "-", status: Int(status.code), bytes: body.count, reason: line, at: Date()))
        }
        LingeringClose.start(context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let start = event as? VersionlessRequestLine.LineStart {
            firstLine = start
            return
        }
        guard let found = event as? VersionlessRequestLine.Found else { return context.fireUserInboundEventTriggered(event) }
        versionlessLine = found.line
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only the first request's line is known: forgotten at its head (no cast after that).
        if firstLine != nil, case .head = unwrapInboundIn(data) { firstLine = nil }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code < 200: break
        case .head: responseInProgress = true
        case .body: break
        case .end: responseInProgress = false
        }
        context.write(data, promise: promise)
    }
}
