import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// One client connection: reads each request (head, body, end), answers it at once when the
/// memory tier can (``ProxyExchange/immediateAnswer(_:)``) or else hands it to a
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
        /// A request without a body, waiting for its end.
        case receiving(IncomingRequest, HTTPRequestHead)
        /// The request was answered early (413) and its remaining parts are ignored.
        case discarding
        /// The request is with the cache; `id` in the registry.
        case forwarding(id: UInt64)
    }

    /// The body of the request being forwarded, while it is still arriving.
    private struct Upload {
        let feed: RequestBodyFeed
        var received = 0
    }

    private let exchange: ProxyExchange
    private let limits: RequestLimits
    private let headerReadTimeout: Duration
    private let registry: ConnectionRegistry
    private let accessLog: (@Sendable (ProxyAccessRecord) -> Void)?
    private let logger: Logger
    private var state = State.idle
    /// The one check of ``headerDeadline`` scheduled at a time (see ``startHeaderTimer(context:)``).
    private var headerTimer: Scheduled<Void>?
    /// When the next request's head must have arrived; `nil` while a request is handled.
    private var headerDeadline: NIODeadline?
    private var drainRequested = false
    /// Set once the connection is to end after the response being written (it said
    /// `Connection: close`, a drain came during a keep-alive response's body, or a body broke
    /// off): requests the client pipelined after it are never forwarded (RFC 9112 §9.6).
    private var closing = false
    /// Whether a response's body is still being streamed (its head written, the state already
    /// `.idle` for the next request): a drain waits for its end instead of cutting it.
    private var streamingBody = false
    private var upload: Upload?
    /// Set when a request body grew past the limit as it arrived: the answer to send instead
    /// of whatever the origin said.
    private var bodyRejection: RequestRejection?
    /// The client's address as the access log writes it, once known.
    private var remoteAddress: String?

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
        headerDeadline = nil
        upload?.feed.fail(ChannelError.ioOnClosedChannel)
        upload = nil
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is DrainEvent else { return context.fireUserInboundEventTriggered(event) }
        drainRequested = true
        if case .idle = state, !streamingBody { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("proxy connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// A slow client (or an idle keep-alive one) gets `headerReadTimeout` to send a complete
    /// request head; then the connection is closed, as nginx's `client_header_timeout` does.
    ///
    /// The deadline moves with every request, but the timer does not: a request only sets
    /// ``headerDeadline``, and the one scheduled check, when it fires, closes the connection
    /// if the deadline has passed, schedules itself again at the deadline if it has not, and
    /// ends if a request is being handled (its end starts the next check). Scheduling and
    /// cancelling a task per request cost a hit 4 % of its CPU.
    private func startHeaderTimer(context: ChannelHandlerContext) {
        let deadline = NIODeadline.now() + TimeAmount(headerReadTimeout)
        headerDeadline = deadline
        if headerTimer == nil { scheduleHeaderCheck(at: deadline, context: context) }
    }

    private func scheduleHeaderCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        headerTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            headerTimer = nil
            guard let current = headerDeadline else { return }
            guard NIODeadline.now() >= current else { return scheduleHeaderCheck(at: current, context: context) }
            logger.debug("closing a connection that sent no complete request head in time")
            context.close(promise: nil)
        }
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headerDeadline = nil
            // After `Connection: close`, the rest is read only to be dropped (the connection
            // lingers so the client reads its answer), never forwarded nor answered.
            guard !closing else {
                state = .discarding
                return
            }
            received(head, context: context)
        case .body(let part):
            guard var current = upload else { return }
            current.received += part.readableBytes
            upload = current
            guard current.received <= limits.maximumRequestBodyBytes else {
                // The origin gets a broken-off body; the client gets 413 (when its answer is
                // written) and the rest of the body is read and dropped.
                let rejection = RequestRejection.bodyTooLarge(limit: limits.maximumRequestBodyBytes)
                if bodyRejection == nil { current.feed.fail(rejection) }
                bodyRejection = rejection
                return
            }
            current.feed.yield(part)
        case .end:
            if let current = upload {
                current.feed.finish()
                upload = nil
                // The body is read: whatever paused reading for it, the next request is read.
                context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
            }
            switch state {
            case .receiving(let request, let head):
                forward(request, head: head, context: context)
            case .discarding:
                // Answered already (and kept open only for a 501): wait for the next request.
                state = .idle
                if !closing { startHeaderTimer(context: context) }
            case .idle, .forwarding:
                break
            }
        }
    }

    private func received(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let address = clientAddress(context)
        switch limits.check(head, clientAddress: address, now: Date()) {
        case .failure(let rejection):
            let request = IncomingRequest(
                method: HTTPRequest.Method(head.method.wireName) ?? .get, path: "/", target: head.uri,
                version: "\(head.version.major).\(head.version.minor)", fields: [:], body: nil, bodyLength: nil, clientAddress: address,
                received: Date())
            state = .discarding
            write(rejection.answer, for: request, head: head, context: context)
        case .success(let request):
            // The body is read here, so the client may send it now (RFC 9110 §10.1.1) — unless
            // there is none, or the client speaks HTTP/1.0, which may take any 1xx for the final
            // answer (§15.2: never sent to a 1.0 client, whose expectation is ignored).
            let hasBody = Self.hasBody(head)
            if head.version.minor >= 1, hasBody,
                head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" })
            {
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
            guard hasBody else {
                state = .receiving(request, head)
                return
            }
            // The body goes to the origin as it arrives: forwarded now, fed part by part.
            var request = request
            let feed = RequestBodyFeed(channel: context.channel)
            upload = Upload(feed: feed)
            request.body = feed.body
            request.bodyLength = head.headers.first(name: "content-length").flatMap { Int($0, radix: 10) }
            forward(request, head: head, context: context)
        }
    }

    /// The client's IP address (`-` when unknown), written once per connection rather than
    /// once per request.
    private func clientAddress(_ context: ChannelHandlerContext) -> String {
        if let address = remoteAddress { return address }
        let address = context.channel.remoteAddress?.ipAddress ?? "-"
        remoteAddress = address
        return address
    }

    /// Whether a request head announces a body: a `Content-Length` above 0, or a
    /// `Transfer-Encoding` (RFC 9112 §6.3; NIO's parser has checked the framing).
    private static func hasBody(_ head: HTTPRequestHead) -> Bool {
        if head.headers.contains(name: "transfer-encoding") { return true }
        return head.headers.first(name: "content-length").flatMap { Int($0, radix: 10) }.map { $0 > 0 } ?? false
    }

    /// Answers the request here when the memory tier can (a fresh hit: no task, no thread
    /// crossed); otherwise hands it to the cache in a task of its own, and the answer is written
    /// back on this connection's event loop, a streamed body part by part, each part read from
    /// the origin only once the previous one was written to the client's socket.
    private func forward(_ request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        if upload == nil, let answer = exchange.immediateAnswer(request) {
            state = .idle
            write(answer, for: request, head: head, context: context)
            return
        }
        let id = registry.began()
        state = .forwarding(id: id)
        let exchange = self.exchange
        let registry = self.registry
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let task = Task {
            let answer = await exchange.answer(request)
            guard answer.streamed != nil else {
                // The common case, one hop and no waiting: the whole answer is written at once.
                bound.eventLoop.execute {
                    registry.ended(id)
                    bound.value.handler.write(answer, for: request, head: head, context: bound.value.context)
                }
                return
            }
            let streamed = try? await bound.eventLoop.submit {
                bound.value.handler.writeHead(answer, for: request, head: head, context: bound.value.context)
            }.get()
            guard let streamed, let parts = streamed.parts else {
                registry.ended(id)
                return
            }
            var sent = 0
            var complete = true
            do {
                for try await part in parts {
                    sent += part.readableBytes
                    try await bound.eventLoop.flatSubmit {
                        bound.value.context.writeAndFlush(bound.value.handler.wrapOutboundOut(.body(.byteBuffer(part))))
                    }.get()
                }
            } catch {
                complete = false  // the client left, or the origin's body broke off
            }
            let (whole, bytes) = (complete && (streamed.length.map { $0 == sent } ?? true), sent)
            bound.eventLoop.execute {
                bound.value.handler.endStreamed(streamed, complete: whole, sent: bytes, for: request, context: bound.value.context)
                registry.ended(id)
            }
        }
        registry.attach(task, to: id)
    }

    // MARK: Writing

    /// A response whose head is written and whose body is still to come.
    private struct StreamedWrite: Sendable {
        /// The body to read and write; `nil` when the whole response was written.
        let parts: BodyStream?
        let length: Int?
        let keepAlive: Bool
        /// Whether the body ends where the connection does (an HTTP/1.0 client, no length).
        var closeDelimited = false
        let answer: ProxyAnswer
    }

    /// Writes `answer`'s head with its framing — `Content-Length` from the body (a HEAD's is
    /// the origin's; a streamed body's is the origin's, or it is sent chunked), `Connection:
    /// close` when the connection ends after it — and, unless its body is still arriving, the
    /// body and the end. Returns what is left to write.
    private func writeHead(
        _ answer: ProxyAnswer, for request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext
    ) -> StreamedWrite? {
        let answer = bodyRejection?.answer ?? answer
        bodyRejection = nil
        if case .forwarding = state { state = .idle }
        guard context.channel.isActive else { return nil }
        // After CONNECT or an Upgrade request NIO's parser stops reading the connection (what
        // follows would be another protocol), so nothing more can be served on it; and the body
        // of an answer to CONNECT never arrives (NIO drops it): the 501 goes without one. A
        // request whose body has not all arrived cannot be followed by another either.
        let upgrade = head.method == .CONNECT || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
        let status = answer.response.status
        let sendsBody = request.method != .head && head.method != .CONNECT && status.mayHaveContent
        let streamed = sendsBody ? answer.streamed : nil
        // An HTTP/1.0 client knows where a body of unknown length ends only by the close.
        let closeDelimited = streamed != nil && streamed?.length == nil && head.version == .http1_0
        var keepAlive = head.isKeepAlive && !answer.closeConnection && !drainRequested && !registry.isDraining && !upgrade
        keepAlive = keepAlive && upload == nil && !closeDelimited
        if !keepAlive { closing = true }
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.response.headerFields.count + 2)
        for field in answer.response.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        // NIO adds no framing of its own (`automaticallySetFramingHeaders` is off): the length
        // is the body's, except for a HEAD, which keeps the origin's and sends no body.
        let body = sendsBody && streamed == nil ? answer.body : Data()
        if let streamed {
            if let length = streamed.length {
                headers.replaceOrAdd(name: "Content-Length", value: String(length))
            } else if !closeDelimited {
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
        } else if request.method != .head, status.mayHaveContent {
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
        if let streamed {
            context.flush()
            streamingBody = true
            return StreamedWrite(
                parts: streamed.parts, length: streamed.length, keepAlive: keepAlive, closeDelimited: closeDelimited, answer: answer)
        }
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        end(keepAlive: keepAlive, context: context)
        accessLog?(ProxyAccessRecord(request: request, status: status.code, bytes: body.count, answer: answer, finished: Date()))
        return StreamedWrite(parts: nil, length: nil, keepAlive: keepAlive, answer: answer)
    }

    /// Ends a streamed response: with its end when every byte went, by closing the connection
    /// when the body broke off (the client sees a short body or a missing last chunk) — with a
    /// reset when the body was to end at the close (an HTTP/1.0 client without a length), which
    /// closed in order would look complete.
    private func endStreamed(_ write: StreamedWrite, complete: Bool, sent: Int, for request: IncomingRequest, context: ChannelHandlerContext) {
        streamingBody = false
        if complete, context.channel.isActive {
            // A drain that came during the body waited for it; the connection closes after.
            end(keepAlive: write.keepAlive && !drainRequested, context: context)
        } else {
            closing = true
            let channel = context.channel
            if !complete, write.closeDelimited, let socket = channel as? any SocketOptionProvider {
                socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        }
        var answer = write.answer
        if !complete { answer.reason += "; body broke off after \(sent) bytes" }
        accessLog?(ProxyAccessRecord(request: request, status: answer.response.status.code, bytes: sent, answer: answer, finished: Date()))
    }

    /// Writes the response's end; then waits for the next request, or closes.
    private func end(keepAlive: Bool, context: ChannelHandlerContext) {
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            if case .idle = state { startHeaderTimer(context: context) }
        } else {
            closing = true
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in LingeringClose.start(context) }
        }
    }

    /// Writes an answer the proxy makes itself, whole.
    private func write(_ answer: ProxyAnswer, for request: IncomingRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        _ = writeHead(answer, for: request, head: head, context: context)
    }
}
