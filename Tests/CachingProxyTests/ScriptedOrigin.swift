import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A loopback origin that answers each path with a response the test writes itself, for what
/// the demo origin never sends: hop-by-hop response fields, `proxy-revalidate`.
final class ScriptedOrigin: Sendable {
    /// A response: status, header lines in order, body.
    struct Reply: Sendable {
        var status = 200
        var headers: [(String, String)] = []
        var body = "scripted\n"
        /// Announces 100 bytes more than the body has, then closes the connection: a response
        /// cut short.
        var cutShort = false
    }

    private let server: LoopbackServer
    private let counter: Counter

    private init(server: LoopbackServer, counter: Counter) {
        (self.server, self.counter) = (server, counter)
    }

    /// Starts it; `reply` answers each request target.
    static func start(_ reply: @escaping @Sendable (String) -> Reply) async throws -> ScriptedOrigin {
        let counter = Counter()
        let server = try await LoopbackServer.start { channel in
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(Handler(reply: reply, counter: counter))
        }
        return ScriptedOrigin(server: server, counter: counter)
    }

    var port: Int { server.port }
    var baseURL: String { server.baseURL }

    /// How many requests reached `target`.
    func requestCount(_ target: String) -> Int { counter.count(target) }

    func stop() async { await server.stop() }

    final class Counter: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func add(_ target: String) { counts.withLock { $0[target, default: 0] += 1 } }
        func count(_ target: String) -> Int { counts.withLock { $0[target] ?? 0 } }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let reply: @Sendable (String) -> Reply
        let counter: Counter
        var target = "/"

        init(reply: @escaping @Sendable (String) -> Reply, counter: Counter) {
            self.reply = reply
            self.counter = counter
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): target = head.uri
            case .body: break
            case .end:
                counter.add(target)
                let answer = reply(target)
                var headers = HTTPHeaders(answer.headers)
                headers.add(name: "Content-Length", value: String(answer.body.utf8.count + (answer.cutShort ? 100 : 0)))
                let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: answer.body)))), promise: nil)
                if answer.cutShort {
                    context.flush()
                    context.close(promise: nil)
                } else {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
            }
        }
    }
}
