import NIOCore
import NIOPosix

/// A NIO server on a free loopback port with an event loop of its own: what the tests'
/// scripted and raw origins run on.
struct LoopbackServer: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        (self.port, self.group, self.channel) = (port, group, channel)
    }

    /// Starts it; `configure` sets up each accepted connection's pipeline, on its event loop.
    static func start(_ configure: @escaping @Sendable (any Channel) throws -> Void) async throws -> LoopbackServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try configure(channel) } }
            .bind(host: "127.0.0.1", port: 0).get()
        return LoopbackServer(port: channel.localAddress?.port ?? 0, group: group, channel: channel)
    }

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Closes the listening socket and shuts the event loop down.
    func stop() async {
        try? await channel.close().get()
        try? await group.shutdownGracefully()
    }
}
