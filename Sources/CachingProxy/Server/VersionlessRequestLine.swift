import HTTPCaching
import NIOCore
import NIOHTTP1

/// Watches the first request line of a connection for an HTTP/0.9 request (`GET /path`, no
/// version), which NIO's parser would wait on until the header-read timeout: it has no way to
/// tell such a line from the start of an HTTP/1.x one. Seeing the line end with only a method
/// and a target, it sends ``VersionlessRequestLine/Found`` and a parser error down the pipeline
/// for ``ProxyProtocolErrorHandler`` to answer 400 at once, naming the line. It also tells that
/// handler the line as far as it has come (``LineStart``), so that a method the parser refuses
/// unnamed can be named in a 501. Either way it leaves the pipeline once the first line has
/// ended, so the requests after it cost nothing; it passes every byte on unchanged. A line
/// whose second word is no request target (`HELLO THERE`) is left to the parser, which refuses it.
///
/// Empty lines before the request line are skipped, as the parser does (RFC 9112 §2.2). A line
/// longer than `limit` bytes is left to the parser (whose limits answer it).
final class VersionlessRequestLine: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The connection's first request line as far as it has arrived (at most 200 bytes), told
    /// before the parser sees those bytes: the parser refuses a method it does not know
    /// without saying which, or whether the line was a request line at all.
    struct LineStart: Equatable {
        /// The line so far, as received.
        let text: String

        /// The method, when the line so far is a token, a space and the start of a request
        /// target (`/`, `*`, or an absolute URI): `FOO /x HTTP/1.1` but not `HELLO THERE` or a
        /// TLS handshake.
        var method: String? {
            guard let space = text.firstIndex(of: " ") else { return nil }
            let word = text[..<space]
            let target = text[text.index(after: space)...]
            guard HTTPToken.isToken(word),
                target.hasPrefix("/") || target.hasPrefix("*") || target.contains("://")
            else { return nil }
            return String(word)
        }

    }

    /// A request line with a method and a target but no HTTP version.
    struct Found: Equatable {
        /// The line as received (at most its first 200 bytes), for the answer and the access log.
        let line: String
    }

    private let limit: Int
    /// The first line so far (at most 200 bytes of it kept) and how many bytes it has had.
    private var line: [UInt8] = {
        var line: [UInt8] = []
        line.reserveCapacity(200)
        return line
    }()
    /// Set once the line was refused: what the client sends after it is dropped, so the
    /// parser, never told of the refusal, reads nothing more while the connection closes.
    private var refused = false
    private var lineLength = 0
    private var spaces = 0

    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        let buffer = unwrapInboundIn(data)
        let verdict = scan(buffer.readableBytesView)
        if verdict != .versionless, !line.isEmpty {
            context.fireUserInboundEventTriggered(LineStart(text: String(decoding: line, as: UTF8.self)))
        }
        switch verdict {
        case .undecided:
            context.fireChannelRead(data)
        case .leftToParser:
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .versionless:
            // The parser error puts NIO's pipeline handler in the state where the 400 may be
            // written; the event before it tells the error handler which line it was.
            refused = true
            context.fireUserInboundEventTriggered(Found(line: String(decoding: line, as: UTF8.self)))
            context.fireErrorCaught(HTTPParserError.invalidVersion)
        }
    }

    private enum Verdict { case undecided, leftToParser, versionless }

    private func scan(_ bytes: ByteBufferView) -> Verdict {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if lineLength == 0 { continue }  // an empty line before the request line
                return spaces == 1 && Self.hasTarget(line) ? .versionless : .leftToParser
            case UInt8(ascii: "\r") where lineLength == 0:
                continue
            case UInt8(ascii: "\r"):
                break
            default:
                if byte == UInt8(ascii: " ") { spaces += 1 }
                if line.count < 200 { line.append(byte) }
                lineLength += 1
                if lineLength > limit || spaces > 1 { return .leftToParser }
            }
        }
        return .undecided
    }

    /// Whether what follows the line's space looks like a request target (`/path` or
    /// `http://host/path`), so that `HELLO THERE` is left to the parser as the garbage it is.
    private static func hasTarget(_ line: [UInt8]) -> Bool {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return false }
        let target = line[(space + 1)...]
        return target.first == UInt8(ascii: "/") || String(decoding: target, as: UTF8.self).contains("://")
    }
}
