import CacheEvents
import SessionLog
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat

/// The dashboard side's channel handler: checks the greeting, then routes event lines to the
/// session's stream and result lines to the commands waiting for them.
///
/// Runs on the channel's event loop only; its own state needs no lock.
final class AttachClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let session: ClientSession
    private var greeting: EventLoopPromise<AttachHello>?
    private let decoder = JSONDecoder()
    private let logger = Logger(label: "cachescope.attach")

    init(session: ClientSession, greeting: EventLoopPromise<AttachHello>) {
        self.session = session
        self.greeting = greeting
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        let message: ServerLine
        do {
            message = try decoder.decode(ServerLine.self, from: line)
        } catch {
            if greeting != nil {
                failGreeting(.notAnAttachSocket(path: session.path, detail: "its first line is not a hello"), context: context)
            } else {
                // A newer server's event kind or line type: skip it, as session-log readers do.
                session.noteSkipped()
                logger.debug("skipped a line from the attach socket", metadata: ["error": "\(error)"])
            }
            return
        }
        if let greeting {
            guard case .hello(let hello) = message else {
                failGreeting(.notAnAttachSocket(path: session.path, detail: "its first line is not a hello"), context: context)
                return
            }
            guard hello.format == AttachHello.formatName else {
                failGreeting(.notAnAttachSocket(path: session.path, detail: "it speaks \"\(hello.format)\""), context: context)
                return
            }
            guard hello.version == AttachHello.currentVersion else {
                let error = AttachError.versionMismatch(
                    path: session.path, peerVersion: hello.version, supportedVersion: AttachHello.currentVersion
                )
                failGreeting(error, context: context)
                return
            }
            guard hello.pid > 0 else {
                failGreeting(.notAnAttachSocket(path: session.path, detail: "its hello names process id \(hello.pid), which no process has"), context: context)
                return
            }
            var greeted = hello
            greeted.process = hello.process.isEmpty ? "unnamed" : PeerText.printable(hello.process, limit: 64)
            self.greeting = nil
            greeting.succeed(greeted)
            return
        }
        switch message {
        case .hello: break
        case .event(let event): session.deliver(event)
        case .result(var reply):
            reply.message = PeerText.printable(reply.message, limit: 4096)
            session.complete(reply)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let error = AttachError.closedByPeer(path: session.path)
        greeting?.fail(error)
        greeting = nil
        session.end(with: error)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // A channel that never became active (the connection failed) ends here; the greeting
        // promise must still be completed.
        greeting?.fail(AttachError.closedByPeer(path: session.path))
        greeting = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let failure: AttachError
        if let io = error as? IOError, io.errnoCode == ECONNRESET || io.errnoCode == EPIPE {
            // The peer went away (a process killed mid-reply): nothing says it is not a publisher.
            failure = .closedByPeer(path: session.path)
        } else {
            let detail = (error as? LineTooLong).map { "it sent a \($0)" } ?? "\(error)"
            failure = .notAnAttachSocket(path: session.path, detail: detail)
        }
        greeting?.fail(failure)
        greeting = nil
        session.end(with: failure)
        context.close(promise: nil)
    }

    private func failGreeting(_ error: AttachError, context: ChannelHandlerContext) {
        greeting?.fail(error)
        greeting = nil
        session.end(with: error)
        context.close(promise: nil)
    }
}
