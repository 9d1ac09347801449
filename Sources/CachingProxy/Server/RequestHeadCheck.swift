import Foundation
import HTTPCaching
import HTTPTypes
import NIOHTTP1

/// Why a request is answered by the proxy itself instead of being forwarded.
enum RequestRejection: Error, Equatable {
    /// The request target is longer than the limit (414).
    case uriTooLong(length: Int, limit: Int)
    /// The header section is larger than the limit (431).
    case headersTooLarge(bytes: Int, limit: Int)
    /// The declared or received body is larger than the limit (413).
    case bodyTooLarge(limit: Int)
    /// The request target is not origin-form (`/path`) or absolute-form (`http://host/path`) (400).
    case malformedTarget(String)
    /// HTTP/1.1 requires exactly one `Host` field (RFC 9112 §3.2) (400).
    case hostCount(Int)
    /// A `Host` value that is not `host[:port]` (RFC 9112 §3.2: a server MUST answer 400).
    case invalidHost(String)
    /// A method the proxy does not forward: `CONNECT`, or `OPTIONS *` (501).
    case notForwarded(String)
    /// More header field lines than ``RequestLimits/maximumHeaderFields`` (431).
    case tooManyFields(count: Int, limit: Int)
    /// A transfer coding other than `chunked` (`gzip, chunked`): RFC 9112 §6.1 asks for 501.
    case transferCoding(String)
    /// `Transfer-Encoding` in an HTTP/1.0 request: RFC 9112 §6.1 says its framing is faulty,
    /// whatever it says (400, and the connection closes).
    case transferEncodingInHTTP10

    /// The response: status and a sentence saying what to change.
    var answer: ProxyAnswer {
        switch self {
        case .uriTooLong(let length, let limit):
            .local(.uriTooLong, "the request target is \(length) bytes; the proxy accepts at most \(limit)", close: true, outcome: "rejected")
        case .headersTooLarge(let bytes, let limit):
            .local(
                .requestHeaderFieldsTooLarge, "the request's header fields take \(bytes) bytes; the proxy accepts at most \(limit)", close: true, outcome: "rejected")
        case .bodyTooLarge(let limit):
            .local(.contentTooLarge, "the request body is larger than the \(limit) bytes the proxy accepts", close: true, outcome: "rejected")
        case .malformedTarget(let target):
            .local(.badRequest, "cannot forward the request target '\(target.prefix(200))': send /path or http://host/path", close: true, outcome: "rejected")
        case .hostCount(let count):
            .local(.badRequest, "an HTTP/1.1 request needs exactly one Host field, this one has \(count)", close: true, outcome: "rejected")
        case .invalidHost(let value):
            .local(.badRequest, "the Host field '\(value.prefix(200))' is not host[:port]", close: true, outcome: "rejected")
        case .notForwarded(let what):
            .local(.notImplemented, "\(what) is not forwarded by this proxy", close: true, outcome: "rejected")
        case .tooManyFields(let count, let limit):
            .local(
                .requestHeaderFieldsTooLarge, "the request has \(count) header fields; the proxy accepts at most \(limit)", close: true,
                outcome: "rejected")
        case .transferEncodingInHTTP10:
            .local(
                .badRequest, "an HTTP/1.0 request cannot have Transfer-Encoding: send Content-Length, or send HTTP/1.1", close: true,
                outcome: "rejected")
        case .transferCoding(let coding):
            .local(
                .notImplemented, "the transfer coding '\(coding.prefix(100))' is not supported: send the body chunked or with Content-Length",
                close: true, outcome: "rejected")
        }
    }
}

/// The limits a request head must keep to, from ``CachingProxyConfiguration``.
struct RequestLimits: Sendable {
    var maximumURILength: Int
    var maximumHeaderBytes: Int
    var maximumRequestBodyBytes: Int
    /// The most header field lines a request may have (431 beyond).
    static let maximumHeaderFields = 256

    /// What NIO's parser is allowed before it fails with `headerOverflow` (answered 431): room
    /// enough that a target or header section just over our own limits reaches ``check(_:clientAddress:now:)``,
    /// which answers 414 or 431 with the figures.
    var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = max(64 << 10, maximumURILength + 1, maximumHeaderBytes + 1)
        limits.maxHeaderListSize = limits.maxHeaderFieldSize + maximumHeaderBytes + 1
        return limits
    }

    /// Checks a request head and makes the request to forward (without its body).
    func check(_ head: HTTPRequestHead, clientAddress: String, now: Date) -> Result<IncomingRequest, RequestRejection> {
        let target = head.uri
        guard target.utf8.count <= maximumURILength else {
            return .failure(.uriTooLong(length: target.utf8.count, limit: maximumURILength))
        }
        let headerBytes = head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headerBytes <= maximumHeaderBytes else {
            return .failure(.headersTooLarge(bytes: headerBytes, limit: maximumHeaderBytes))
        }
        guard head.headers.count <= Self.maximumHeaderFields else {
            return .failure(.tooManyFields(count: head.headers.count, limit: Self.maximumHeaderFields))
        }
        if head.method == .CONNECT { return .failure(.notForwarded("CONNECT")) }
        if target == "*" {
            return .failure(head.method == .OPTIONS ? .notForwarded("OPTIONS *") : .malformedTarget(target))
        }
        guard let path = RequestTarget.pathAndQuery(of: target) else { return .failure(.malformedTarget(target)) }
        guard let method = HTTPRequest.Method(head.method.wireName) else { return .failure(.malformedTarget(target)) }
        // Field lines, not comma-separated values: `Host: a,b` is one (invalid) value.
        let hosts = head.headers["host"].count
        if head.version.minor >= 1, hosts != 1 { return .failure(.hostCount(hosts)) }
        if let host = head.headers.first(name: "host"), !Self.isHostAndPort(host) { return .failure(.invalidHost(host)) }
        if head.version == .http1_0, head.headers.contains(name: "transfer-encoding") { return .failure(.transferEncodingInHTTP10) }
        // NIO's parser has refused a last coding other than chunked; one before it is ours to refuse.
        if head.headers.contains(name: "transfer-encoding"),
            let coding = TransferCodings.firstNotChunked(in: head.headers["transfer-encoding"])
        {
            return .failure(.transferCoding(coding))
        }
        if let declared = head.headers.first(name: "content-length").flatMap({ Int($0) }), declared > maximumRequestBodyBytes {
            return .failure(.bodyTooLarge(limit: maximumRequestBodyBytes))
        }
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        for (name, value) in head.headers {
            // The parser accepts only token names, so this never drops a field in practice.
            guard let fieldName = HTTPField.Name(name) else { return .failure(.malformedTarget(target)) }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return .success(IncomingRequest(
            method: method, path: path, target: target, version: "\(head.version.major).\(head.version.minor)", fields: fields,
            body: nil, bodyLength: nil, clientAddress: clientAddress, received: now))
    }

    /// Whether `value` is a `Host` field's `uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 3986
    /// §3.2.2): a bracketed IP literal, or a name of unreserved characters, percent escapes
    /// and sub-delimiters, then optionally a colon and digits.
    static func isHostAndPort(_ value: String) -> Bool {
        // Read in place (every request's Host passes here: no copy into an array).
        var value = value
        return value.withUTF8(isHostAndPort)
    }

    private static func isHostAndPort(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
            let literal = bytes[1..<close]
            if literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V") {
                // IPvFuture: "v" HEXDIG+ "." ( unreserved / sub-delims / ":" )+
                guard let dot = literal.firstIndex(of: UInt8(ascii: ".")), dot > literal.startIndex + 1, dot < close - 1,
                    literal[(literal.startIndex + 1)..<dot].allSatisfy(isHexDigit),
                    literal[(dot + 1)...].allSatisfy({ isNameByte($0) && $0 != UInt8(ascii: "%") || $0 == UInt8(ascii: ":") })
                else { return false }
            } else {
                // An IPv6 address, with a zone ID after "%25" (RFC 6874).
                let zone = literal.firstIndex(of: UInt8(ascii: "%")) ?? close
                guard literal[..<zone].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
                    literal[zone...].allSatisfy(isNameByte)
                else { return false }
            }
            index = close + 1
        } else {
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                guard isNameByte(bytes[index]) else { return false }
                index += 1
            }
            guard index > 0 else { return false }
        }
        guard index < bytes.count else { return true }
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        return bytes[(index + 1)...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// RFC 3986's reg-name bytes: unreserved, `%` of an escape, sub-delimiters.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~%!$&'()*+,;=".utf8.contains(byte)
        }
    }

}
