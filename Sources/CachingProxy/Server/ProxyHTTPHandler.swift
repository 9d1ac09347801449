import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// One client connection: reads each request (head, body, end), hands it to a
/// ``ProxyExchange`` in a task of its own, and writes the answer back on the connection's event
/// loop.
///
/// It sits behind NIO's HTTP server pipeline, whose pipelining handler holds a connection's next
/// request back until this one's response has ended: pipelined requests are answered in order,
/// one at a time per connection. Everything here runs on the connection's event loop.
final class ProxyHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request head (the header-read timer runs).
        case idle
        /// Reading a request's body.
        case receiving(IncomingRequest, HTTPRequestHead, ByteBuffer?)
        /// The request was answered early (413) and its remaining parts are ignored.
        case discarding
        /// The request is with the cache; `id` in the registry.
        case forwarding(id: UInt64)
    }

    private let exchange: ProxyExchange
    private let limits: RequestLimits
    private let headerReadTimeout: Duration
    private let registry: ConnectionRegistry
    private let accessLog: (@Sendable (ProxyAccessRecord) -> Void)?
    private let logger: Logger
    private var state = State.idle
    private var headerTimer: Scheduled<Void>?
    private var drainRequested = false

    init(
        exchange: ProxyExchange, limits: RequestLimits, headerReadTimeout: Duration, registry: ConnectionRegistry,
        accessLog: (@Sendable (ProxyAccessRecord) -> Void)?, logger: Logger
    ) {
        self.exchange = exchange
        self.limits = limits
        self.headerReadTimeout = headerReadTimeout
        self.registry = registry
        self.accessLog = accessLog
        self.logger = logger
    }

    // MARK: Connection life

    func handlerAdded(context: ChannelHandlerContext) {
        startHeaderTimer(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        headerTimer?.cancel()
        headerTimer = nil
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is DrainEvent else { return context.fireUserInboundEventTriggered(event) }
        drainRequested = true
        if case .idle = state { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("proxy connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// A slow client (or an idle keep-alive one) gets `headerReadTimeout` to send a complete
    /// request head; then the connection is closed, as nginx's `client_header_timeout` does.
    private func startHeaderTimer(context: ChannelHandlerContext) {
        headerTimer?.cancel()
        headerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(headerReadTimeout)) { [logger] in
            logger.debug("closing a connection that sent no complete request head in time")
            context.close(promise: nil)
        }
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headerTimer?.cancel()
            headerTimer = nil
            received(head, context: context)
        case .body(var chunk):
            guard case .receiving(let request, let head, var body) = state else { return }
            let size = (body?.readableBytes ?? 0) + chunk.readableBytes
            guard size <= limits.maximumRequestBodyBytes else {
                state = .discarding
                write(RequestRejection.bodyTooLarge(limit: limits.maximumRequestBodyBytes).answer, for: request, head: head, context: context)
                return
            }
            if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
            state = .receiving(request, head, body)
        case .end:
            switch state {
            case .receiving(var request, let head, let body):
                if let body { request.body = Data(body.readableBytesView) }
                forward(request, head: head, context: context)
            case .discarding:
                // Answered already (and kept open only for a 501): wait for the next request.
                state = .idle
                startHeaderTimer(context: context)
            case .idle, .forwarding:
                break
            }
        }
    }

    private func received(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "-"
        switch limits.check(head, clientAddress: address, now: Date()) {
        case .failure(let rejection):
            let request = IncomingRequest(
                method: HTTPRequest.Method(head.method.rawValue) ?? .get, path: "/", target: head.uri,
                version: "\(head.version.major).\(head.version.minor)", fields: [:], body: nil, clientAddress: address, received: Date())
            state = .discarding
            write(rejection.answer, for: request, head: head, context: context)
        case .success(let request):
            if head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // The body is read here, so the client may send it now (RFC 9110 §10.1.1).
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
            state = .receiving(request, head, nil)
        }
    }

    /// Hands the request to the cache in a task of its own; the answer is written back on this
    /// connection's event loop.
    private func forward(_ request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let id = registry.began()
        state = .forwarding(id: id)
        let exchange = self.exchange
        let registry = self.registry
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let task = Task {
            let answer = await exchange.answer(request)
            bound.eventLoop.execute {
                registry.ended(id)
                bound.value.handler.write(answer, for: request, head: head, context: bound.value.context)
            }
        }
        registry.attach(task, to: id)
    }

    // MARK: Writing

    /// Writes `answer` with its framing: `Content-Length` from the body (a HEAD's is the
    /// origin's), `Connection: close` when the connection ends after it.
    private func write(_ answer: ProxyAnswer, for request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        if case .forwarding = state { state = .idle }
        guard context.channel.isActive else { return }
        // After CONNECT or an Upgrade request NIO's parser stops reading the connection (what
        // follows would be another protocol), so nothing more can be served on it; and the body
        // of an answer to CONNECT never arrives (NIO drops it): the 501 goes without one.
        let upgrade = head.method == .CONNECT || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
        let keepAlive = head.isKeepAlive && !answer.closeConnection && !drainRequested && !registry.isDraining && !upgrade
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.response.headerFields.count + 2)
        for field in answer.response.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        let status = answer.response.status
        // NIO adds no framing of its own (`automaticallySetFramingHeaders` is off): the length
        // is the body's, except for a HEAD, which keeps the origin's and sends no body.
        let body = request.method == .head || head.method == .CONNECT || !ProxyExchange.mayHaveBody(status) ? Data() : answer.body
        if request.method != .head, ProxyExchange.mayHaveBody(status) {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        }
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if head.version == .http1_0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let version = head.version == .http1_0 ? HTTPVersion.http1_0 : .http1_1
        let responseHead = HTTPResponseHead(
            version: version, status: HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase), headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if keepAlive {
            if case .idle = state { startHeaderTimer(context: context) }
        } else {
            ended.assumeIsolated().whenComplete { _ in LingeringClose.start(context) }
        }
        accessLog?(ProxyAccessRecord(request: request, status: status.code, bytes: body.count, answer: answer, finished: Date()))
    }
}
