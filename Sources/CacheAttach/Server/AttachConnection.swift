import CacheEvents
import SessionLog
import Foundation
import Logging
import NIOCore

/// Serves one attached dashboard: subscribes to the bus (lossy, with the store snapshot as its
/// first events), greets, then runs two loops until either ends — events out, commands in.
///
/// Why this never slows the app: the bus only ever appends to this connection's bounded
/// buffer (an ``EventSubscription``). The events loop takes everything published since its
/// last write as one burst and writes it, as one buffer of JSON lines, through NIO's async
/// writer, which suspends while the channel is not writable (the
/// peer stopped reading and the socket plus the channel's 64 KiB write buffer are full). While
/// it is suspended the batch buffer fills, the bus counts what no longer fits, and the
/// dashboard receives `dropped(count)` once it reads again. Memory per connection is bounded
/// by the batch buffer plus the channel's high-water mark.
struct AttachConnection: Sendable {
    let bus: EventBus
    let snapshot: @Sendable () async -> [CacheEventKind]
    let commands: @Sendable (ClientCommand) async -> CommandResult
    let hello: AttachHello
    let bufferSize: Int
    let logger: Logger

    /// The longest command line accepted from a dashboard.
    static let maximumLineLength = 64 * 1024

    func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        do {
            try await channel.executeThenClose { inbound, outbound in
                // Accepted while the server was stopping: just close.
                guard !Task.isCancelled else { return }
                // Subscribe before greeting: once a dashboard has read the hello, every later
                // event reaches it. The subscription ends when `events` is released at the end
                // of this closure, however the exchange ended (the bus then drops the
                // subscriber).
                let events = bus.subscribe(.lossy(bufferSize: bufferSize), initial: await snapshot()).batches
                try await exchange(events: events, inbound: inbound, outbound: outbound, channel: channel.channel)
            }
        } catch is CancellationError {
            // The server is stopping.
        } catch {
            logger.debug("attach connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Greets, then runs both directions until one ends (bus finished, peer gone, write failed).
    private func exchange(
        events: EventSubscription.Batches, inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel
    ) async throws {
        let lines = JSONLines()
        try await outbound.write(lines.line(ServerLine.hello(hello)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await forward(events, to: outbound, lines: lines) }
            group.addTask { try await answer(inbound, on: outbound, lines: lines) }
            // Closing the channel also ends a read that is waiting for the peer.
            defer {
                group.cancelAll()
                channel.close(promise: nil)
            }
            _ = try await group.next()
        }
    }

    // MARK: - Events out

    private func forward(
        _ events: EventSubscription.Batches, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, lines: JSONLines
    ) async throws {
        for await batch in events {
            var burst = ByteBuffer()
            for event in batch {
                var line = try lines.line(ServerLine.event(event))
                burst.writeBuffer(&line)
            }
            try await outbound.write(burst)
        }
    }

    // MARK: - Commands in

    private func answer(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, on outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        lines: JSONLines
    ) async throws {
        let decoder = JSONDecoder()
        do {
            // One command at a time, in order: results come back in the order the commands were sent.
            for try await line in inbound {
                let reply: CommandReply
                switch CommandRequest.parse(line, decoder: decoder) {
                case .success(let request):
                    reply = CommandReply(id: request.id, result: await commands(request.command))
                case .failure(let problem):
                    logger.debug("malformed line from an attached dashboard", metadata: ["problem": "\(problem.message)"])
                    reply = CommandReply(id: problem.id, succeeded: false, message: problem.message)
                }
                try await outbound.write(lines.line(ServerLine.result(reply)))
            }
        } catch let tooLong as LineTooLong {
            let message = "\(tooLong); closing the connection"
            try await outbound.write(lines.line(ServerLine.result(CommandReply(id: nil, succeeded: false, message: message))))
        }
    }
}
