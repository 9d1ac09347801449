import HTTPTypes

/// The primary cache key (RFC 9111 §2): the request method and the full target URI —
/// scheme, host, port, path **and query** — normalised per RFC 3986 §6.2.2 and RFC 9110
/// §4.2.3 (scheme and host lower-cased, default port removed, empty path as `/`,
/// percent-encodings upper-cased, fragment dropped). Vary adds the secondary key
/// (``VaryKey``).
///
/// `HEAD` requests are looked up under the `GET` key: a stored GET response answers them.
public struct CacheKey: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The method part of the key (`GET` for GET and HEAD).
    public let method: String
    /// The normalised target URI.
    public let uri: String

    /// Creates a key from a method and an absolute URI, normalising the URI.
    /// Returns `nil` when `uri` is not an absolute http(s) URI.
    public init?(method: String, uri: String) {
        guard let normalized = Self.normalize(uri) else { return nil }
        self.method = method == "HEAD" ? "GET" : method
        self.uri = normalized
    }

    /// The key of a request; `nil` when the request lacks scheme or authority.
    public init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority else { return nil }
        self.init(method: request.method.rawValue, uri: "\(scheme)://\(authority)\(request.path ?? "/")")
    }

    /// `GET https://example.com/a?b=1`
    public var description: String { "\(method) \(uri)" }

    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool { (lhs.uri, lhs.method) < (rhs.uri, rhs.method) }

    // MARK: Normalisation

    static func normalize(_ uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let scheme = uri[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = uri[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<pathStart]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        var host = authority.lowercased()
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        if host.hasSuffix(":") { host.removeLast() }
        var pathAndQuery = String(rest[pathStart...])
        if pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") { pathAndQuery = "/" + pathAndQuery }
        return "\(scheme)://\(host)\(uppercasingPercentEncodings(pathAndQuery))"
    }

    private static func uppercasingPercentEncodings(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes = Array(text.utf8)
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit {
                bytes[i + 1] = bytes[i + 1].uppercasedHex
                bytes[i + 2] = bytes[i + 2].uppercasedHex
                i += 3
            } else {
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }

    fileprivate var uppercasedHex: UInt8 { (0x61...0x66).contains(self) ? self - 0x20 : self }
}
