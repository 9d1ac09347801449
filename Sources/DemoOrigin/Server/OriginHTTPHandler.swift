import Logging
import NIOCore
import NIOHTTP1

// MARK: - NIO glue: HTTP/1.1 parts in, framed responses out

/// The per-connection channel handler: gathers a request, asks ``OriginService`` for the
/// response and writes it with `Date`, `Content-Length` and `Connection` added.
///
/// It sits behind NIO's HTTP server pipeline, whose pipelining handler holds a connection's next
/// request back until this one's response has ended, so a delayed (`/slow`) response cannot
/// overtake or be overtaken. Request bodies are read and dropped as they arrive, counted and
/// digested (``ReceivedBody``): only `/items` accepts unsafe methods, and its answer says what
/// arrived. A generated body (`/large`) is written part by part, each part made when the
/// previous one has been written, so the origin never holds it whole.
final class OriginHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: OriginService
    private let gates: ResponseGates
    private let logger: Logger
    private var requestHead: HTTPRequestHead?
    private var receivedBody = ReceivedBody()
    private var pendingDelayedWrite: Scheduled<Void>?
    private var isInactive = false

    init(service: OriginService, gates: ResponseGates, logger: Logger) {
        self.service = service
        self.gates = gates
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
            receivedBody = ReceivedBody()
        case .body(let part):
            part.withUnsafeReadableBytes { receivedBody.append($0) }
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            let request = OriginRequest(
                method: head.method.rawValue, target: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) }, body: receivedBody)
            let response = service.respond(to: request)
            // A test's gate may hold the response; it is sent from this loop when opened.
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            let held = gates.hold(request.target) {
                bound.eventLoop.execute { bound.value.handler.send(response, answering: head, context: bound.value.context) }
            }
            if !held { send(response, answering: head, context: context) }
        }
    }

    /// Sends `response` now, or after its delay (scheduled on this connection's event loop:
    /// waiting never blocks a thread).
    private func send(_ response: OriginResponse, answering head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard !isInactive else { return }
        guard response.delayMilliseconds > 0 else {
            write(response, answering: head, context: context)
            return
        }
        pendingDelayedWrite = context.eventLoop.assumeIsolated().scheduleTask(
            in: .milliseconds(Int64(response.delayMilliseconds))
        ) {
            self.pendingDelayedWrite = nil
            self.write(response, answering: head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isInactive = true
        pendingDelayedWrite?.cancel()
        pendingDelayedWrite = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("demo origin connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    // MARK: Writing

    private func write(_ response: OriginResponse, answering head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let status = HTTPResponseStatus(statusCode: response.status)
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.add(name: "Date", value: HTTPDateFormatting.format(secondsSince1970: service.now))
        if status.mayHaveResponseBody {
            headers.add(name: "Content-Length", value: String(response.generated?.size ?? response.body.count))
        }
        let keepAlive = head.isKeepAlive
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if head.version == .http1_0 {
            headers.add(name: "Connection", value: "keep-alive")
        }

        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method != .HEAD, let generated = response.generated {
            writeGenerated(generated, from: 0, keepAlive: keepAlive, context: context)
            return
        }
        if head.method != .HEAD, !response.body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        end(keepAlive: keepAlive, context: context)
    }

    /// Writes `body` from `offset` on, one part at a time: the next part is made when the
    /// previous one has gone to the socket (back-pressure from a slow reader), then the end.
    private func writeGenerated(_ body: GeneratedBody, from offset: Int, keepAlive: Bool, context: ChannelHandlerContext) {
        guard offset < body.size else { return end(keepAlive: keepAlive, context: context) }
        guard context.channel.isActive else { return }
        let next = min(body.size, offset + GeneratedBody.partSize)
        let buffer = context.channel.allocator.buffer(bytes: body.bytes(offset..<next))
        let written: EventLoopFuture<Void> = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))))
        written.assumeIsolated().whenComplete { result in
            guard case .success = result else { return }
            self.writeGenerated(body, from: next, keepAlive: keepAlive, context: context)
        }
    }

    private func end(keepAlive: Bool, context: ChannelHandlerContext) {
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            ended.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
