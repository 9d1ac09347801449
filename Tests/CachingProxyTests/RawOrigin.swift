import NIOCore
import NIOPosix
import Synchronization

/// A loopback origin that answers every request head with bytes the test writes itself —
/// status lines and framings no HTTP library would send — after an optional delay, then
/// closes the connection, or with `drip`, sends one more byte at each interval and never
/// ends. `nil` bytes close it without an answer. It counts the connections open at once, the
/// most it saw.
final class RawOrigin: Sendable {
    private let server: LoopbackServer
    private let connections: Connections

    private init(server: LoopbackServer, connections: Connections) {
        (self.server, self.connections) = (server, connections)
    }

    /// Starts it; each request head gets `answer` after `delay` (then a byte every `drip`,
    /// `drips` of them before it closes, or for ever).
    static func start(delay: TimeAmount = .zero, drip: TimeAmount? = nil, drips: Int = .max, answer: String?) async throws -> RawOrigin {
        let connections = Connections()
        let bytes = answer.map { Array($0.utf8) }
        let server = try await LoopbackServer.start { channel in
            try channel.pipeline.syncOperations.addHandler(Handler(answer: bytes, delay: delay, drip: drip, drips: drips, connections: connections))
        }
        return RawOrigin(server: server, connections: connections)
    }

    var port: Int { server.port }
    var baseURL: String { server.baseURL }

    /// The most connections that were open at once.
    var mostConnectionsAtOnce: Int { connections.most }

    func stop() async { await server.stop() }

    final class Connections: Sendable {
        private let counts = Mutex((open: 0, most: 0))
        func opened() { counts.withLock { $0.open += 1; $0.most = max($0.most, $0.open) } }
        func closed() { counts.withLock { $0.open -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let answer: [UInt8]?
        let delay: TimeAmount
        let drip: TimeAmount?
        let drips: Int
        let connections: Connections
        private var received: [UInt8] = []
        private var answered = false

        init(answer: [UInt8]?, delay: TimeAmount, drip: TimeAmount?, drips: Int, connections: Connections) {
            (self.answer, self.delay, self.drip, self.drips, self.connections) = (answer, delay, drip, drips, connections)
        }

        func channelActive(context: ChannelHandlerContext) {
            connections.opened()
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            connections.closed()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += unwrapInboundIn(data).readableBytesView
            guard !answered, received.count >= 4, received.suffix(4) == Array("\r\n\r\n".utf8) else { return }
            answered = true
            let (answer, drip, drips) = (self.answer, self.drip, self.drips)
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                guard let answer else { return context.close(promise: nil) }
                guard let drip else {
                    context.writeAndFlush(NIOAny(ByteBuffer(bytes: answer))).assumeIsolated().whenComplete { _ in
                        context.close(promise: nil)
                    }
                    return
                }
                context.writeAndFlush(NIOAny(ByteBuffer(bytes: answer)), promise: nil)
                Self.dripByte(every: drip, left: drips, context: context)
            }
        }

        /// A byte after `interval`, `left` times while the connection is open; then it closes,
        /// once the last byte is written (a close fails the writes still queued).
        private static func dripByte(every interval: TimeAmount, left: Int, context: ChannelHandlerContext) {
            guard context.channel.isActive, left > 0 else { return }
            context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
                guard context.channel.isActive else { return }
                let written = context.writeAndFlush(NIOAny(ByteBuffer(string: "x")))
                guard left > 1 else {
                    written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                    return
                }
                dripByte(every: interval, left: left - 1, context: context)
            }
        }
    }
}
