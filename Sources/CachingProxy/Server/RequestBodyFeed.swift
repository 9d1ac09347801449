import CachingClient
import NIOCore

/// A request body on its way from the client's connection to the origin: the parts NIO reads
/// are handed to the caching client's ``BodyStream`` as it sends them, and reading from the
/// connection pauses (`autoRead` off) while more than a few parts wait, so a large upload is
/// never held whole.
///
/// Fed on the connection's event loop by ``ProxyHTTPHandler``; read by the request's task.
struct RequestBodyFeed {
    /// The body as the caching client reads it.
    let body: BodyStream
    private let source: Producer.Source
    private let channel: any Channel

    private typealias Producer = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, ReadResumer
    >

    /// A feed for `channel`'s current request.
    init(channel: any Channel) {
        let made = Producer.makeSequence(
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: true,
            delegate: ReadResumer(channel: channel))
        source = made.source
        body = BodyStream(parts: made.sequence)
        self.channel = channel
    }

    /// Passes one part on; stops reading the connection when the reader is behind.
    func yield(_ part: ByteBuffer) {
        if case .stopProducing = source.yield(part) {
            channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        }
    }

    /// The body ended.
    func finish() {
        source.finish()
    }

    /// The body cannot be sent: the reader gets `error`.
    func fail(_ error: any Error) {
        source.finish(error)
    }
}

/// Turns reading back on when the reader wants more, or stopped reading (the rest of the body
/// must still be read off the connection, to answer or close it).
private struct ReadResumer: NIOAsyncSequenceProducerDelegate {
    let channel: any Channel

    func produceMore() {
        channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
    }

    func didTerminate() {
        produceMore()
    }
}
