public import Foundation
import HTTPCaching
import HTTPTypes

/// One answered request, as the access log shows it: what was asked, what was sent back, and
/// what the cache did.
///
/// ```swift
/// record.commonLogLine
/// // 127.0.0.1 - - [25/Nov/2026:16:30:00 +0000] "GET /max-age/60 HTTP/1.1" 200 1024 hit "max-age=60"
/// ```
public struct ProxyAccessRecord: Sendable {
    /// The client's IP address (`-` when unknown).
    public let clientAddress: String
    /// The method (`-` for a request the parser could not read).
    public let method: String
    /// The request target as sent (empty for a request the parser could not read).
    public let target: String
    /// `HTTP/1.1` or `HTTP/1.0` (empty for a request the parser could not read).
    public let version: String
    /// The status sent.
    public let status: Int
    /// Body bytes sent.
    public let bytes: Int
    /// The cache's outcome word (`hit`, `stale`, `revalidated`, `modified`, `miss`, `bypass`,
    /// `error`), or `rejected` for a request the proxy refused itself (400, 413, 414, 431, 501).
    public let outcome: String
    /// Why, in words.
    public let reason: String
    /// When the request head arrived.
    public let received: Date
    /// When the response was written.
    public let finished: Date

    init(request: IncomingRequest, status: Int, bytes: Int, answer: ProxyAnswer, finished: Date) {
        clientAddress = request.clientAddress
        method = request.method.rawValue
        target = request.target
        version = "HTTP/\(request.version)"
        self.status = status
        self.bytes = bytes
        outcome = answer.outcome
        reason = answer.reason
        received = request.received
        self.finished = finished
    }

    /// A request NIO's parser could not read, answered by the proxy (`rejected`): no method,
    /// target or version to show, so the line's request is `"-"`, as nginx writes it.
    init(unreadableFrom clientAddress: String, status: Int, bytes: Int, reason: String, at date: Date) {
        self.clientAddress = clientAddress
        (method, target, version) = ("-", "", "")
        self.status = status
        self.bytes = bytes
        outcome = "rejected"
        self.reason = reason
        (received, finished) = (date, date)
    }

    /// The NCSA common log format line, followed by the outcome and the quoted reason:
    /// `HOST - - [DATE] "METHOD TARGET VERSION" STATUS BYTES OUTCOME "REASON"`. Quotes and
    /// control characters in the target and reason are escaped, so a line is always one line.
    public var commonLogLine: String {
        let request = target.isEmpty ? method : Self.escaped("\(method) \(target) \(version)")
        return "\(clientAddress) - - [\(Self.commonLogDate(received))] \"\(request)\" \(status) \(bytes) \(outcome) \"\(Self.escaped(reason))\""
    }

    /// `25/Nov/2026:16:30:00 +0000` (always UTC).
    ///
    /// Cut from the IMF-fixdate `HTTPDate` writes (`Wed, 25 Nov 2026 16:30:00 GMT`, fixed
    /// width): every request's line has one, so no `Calendar` is consulted per request.
    static func commonLogDate(_ date: Date) -> String {
        let imf = HTTPDate.format(date).utf8
        guard imf.count == 29 else { return "01/Jan/1970:00:00:00 +0000" }  // after the year 9999
        func part(_ range: Range<Int>) -> Substring.UTF8View {
            imf[imf.index(imf.startIndex, offsetBy: range.lowerBound)..<imf.index(imf.startIndex, offsetBy: range.upperBound)]
        }
        return "\(Substring(part(5..<7)))/\(Substring(part(8..<11)))/\(Substring(part(12..<16))):\(Substring(part(17..<25))) +0000"
    }

    /// `text` with `"` and `\` escaped and control characters as `\xNN`.
    static func escaped(_ text: String) -> String {
        // Almost every target and reason has nothing to escape: checked byte by byte, not
        // rebuilt scalar by scalar.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
