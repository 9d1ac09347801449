import NIOCore

/// Closing a connection whose client may still be sending (a body the proxy refused, a request
/// after a 503): first only our side, so the client reads the answer before it sees the end, and
/// the whole connection when the client closes or after ``time``. Closing at once while unread
/// bytes arrive makes the kernel send a reset, which can destroy the answer before the client
/// reads it (nginx's `lingering_close` does the same).
enum LingeringClose {
    /// How long a closing connection may go on sending before it is cut off.
    static let time: TimeAmount = .seconds(2)

    /// Half-closes `context`'s channel now and closes it fully after ``time``.
    static func start(_ context: ChannelHandlerContext) {
        let channel = context.channel
        let closing = context.eventLoop.makePromise(of: Void.self)
        closing.futureResult.whenFailure { _ in channel.close(promise: nil) }
        context.close(mode: .output, promise: closing)
        context.eventLoop.scheduleTask(in: time) { channel.close(promise: nil) }
    }
}
