import NIOCore

/// A line longer than the reader accepts; the connection ends after it is reported.
struct LineTooLong: Error, Sendable, Hashable, CustomStringConvertible {
    var limit: Int
    var description: String { "line longer than \(limit) bytes" }
}

/// Splits a byte stream into lines at `\n` (a trailing `\r` is dropped, empty lines are
/// skipped). A line that grows past `maximumLength` without a newline is an error, so a peer
/// that never sends one cannot make the reader buffer without bound.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    let maximumLength: Int
    /// How far the current partial line has been searched, so each byte is scanned once.
    private var scanned = 0

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let bytes = buffer.readableBytesView
        guard let newline = bytes[(bytes.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = bytes.count
            if scanned > maximumLength { throw LineTooLong(limit: maximumLength) }
            return .needMoreData
        }
        scanned = 0
        let length = newline - bytes.startIndex
        guard length <= maximumLength else { throw LineTooLong(limit: maximumLength) }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        if line.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(line)) }
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial line at the end of the stream was never completed; it is not a message.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
