import Foundation
public import HTTPTypes

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

    /// The key a ``description`` names — `GET https://host/path` — or, for a bare URL, its
    /// `GET` key; surrounding blanks are ignored. `nil` when the URI is not an absolute
    /// http(s) URI.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else {
            self.init(method: "GET", uri: trimmed)
            return
        }
        self.init(method: String(trimmed[..<space]), uri: String(trimmed[trimmed.index(after: space)...]))
    }

    /// `GET https://example.com/a?b=1`
    public var description: String { method + " " + uri }

    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool { (lhs.uri, lhs.method) < (rhs.uri, rhs.method) }

    // MARK: Normalisation

    /// Normalises an absolute http(s) URI in one pass over its UTF-8 bytes (every request
    /// computes its key, so this is on the hit path); `nil` when it is not one. An already
    /// normal URI is returned as it is, without copying.
    static func normalize(_ uri: String) -> String? {
        var bytesOfURI = uri
        let result = bytesOfURI.withUTF8 { bytes -> Normalization in
            guard let parts = URIParts(bytes) else { return .invalid }
            // A combining mark after "://" or "@" merges with it into another character.
            if bytes[parts.schemeEnd + 3] >= 0x80 || bytes[parts.authorityStart] >= 0x80,
                !Self.isCharacterBoundary(uri, utf8Offset: parts.schemeEnd + 3)
                    || !Self.isCharacterBoundary(uri, utf8Offset: parts.authorityStart)
            {
                return .invalid
            }
            return parts.isNormal(bytes) ? .unchanged : .changed(parts.normalized(bytes))
        }
        switch result {
        case .invalid: return nil
        case .unchanged: return uri
        case .changed(let normalized): return normalized
        }
    }

    private static func isCharacterBoundary(_ text: String, utf8Offset: Int) -> Bool {
        text.utf8.index(text.utf8.startIndex, offsetBy: utf8Offset).samePosition(in: text) != nil
    }

    private enum Normalization {
        case invalid, unchanged, changed(String)
    }
}

/// The byte ranges of an absolute URI that normalisation looks at.
private struct URIParts {
    let schemeEnd: Int  // index of "://"
    let isHTTPS: Bool
    let authorityStart: Int  // after any userinfo
    let pathStart: Int  // first "/" or "?" after the authority, or the fragment / end
    let end: Int  // the fragment's "#", or the end

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let separator = URIParts.firstSchemeSeparator(bytes) else { return nil }
        schemeEnd = separator
        switch separator {
        case 4: isHTTPS = false
        case 5: isHTTPS = true
        default: return nil
        }
        // "http" or "https" in any case ("H" | 0x20 == "h").
        guard bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"), bytes[2] | 0x20 == UInt8(ascii: "t"),
            bytes[3] | 0x20 == UInt8(ascii: "p"), !isHTTPS || bytes[4] | 0x20 == UInt8(ascii: "s")
        else { return nil }
        let restStart = separator + 3
        var end = bytes.count
        var pathStart: Int?
        for i in restStart..<bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "#") {
                end = i
                break
            }
            if pathStart == nil, byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") { pathStart = i }
        }
        self.end = end
        self.pathStart = pathStart ?? end
        var authorityStart = restStart
        for i in restStart..<self.pathStart where bytes[i] == UInt8(ascii: "@") { authorityStart = i + 1 }
        self.authorityStart = authorityStart
        guard authorityStart < self.pathStart else { return nil }
    }

    private static func firstSchemeSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        for i in 0...(bytes.count - 3)
        where bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/") {
            return i
        }
        return nil
    }

    /// The host and port with a default port (or a bare `:`) removed.
    private func hostEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = pathStart
        let port: StaticString = isHTTPS ? ":443" : ":80"
        let length = port.utf8CodeUnitCount
        if end - authorityStart >= length, (0..<length).allSatisfy({ bytes[end - length + $0] == port.utf8Start[$0] }) {
            end -= length
        }
        if end > authorityStart, bytes[end - 1] == UInt8(ascii: ":") { end -= 1 }
        return end
    }

    /// Whether normalising would change nothing: lower-case scheme and host, no userinfo,
    /// default port or fragment, a path, and upper-case percent-encodings.
    func isNormal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard authorityStart == schemeEnd + 3, end == bytes.count, pathStart < end, bytes[pathStart] == UInt8(ascii: "/"),
            hostEnd(bytes) == pathStart
        else { return false }
        for i in 0..<pathStart {
            let byte = bytes[i]
            if byte >= 0x80 || (0x41...0x5A).contains(byte) { return false }
        }
        var i = pathStart
        while i + 2 < end {
            if bytes[i] == UInt8(ascii: "%"), bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit {
                if bytes[i + 1] != bytes[i + 1].uppercasedHex || bytes[i + 2] != bytes[i + 2].uppercasedHex { return false }
                i += 3
            } else {
                i += 1
            }
        }
        return true
    }

    /// The normalised URI (RFC 3986 §6.2.2, RFC 9110 §4.2.3).
    func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end + 1)
        let scheme: StaticString = isHTTPS ? "https://" : "http://"
        out.append(contentsOf: UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount))
        let host = UnsafeBufferPointer(rebasing: bytes[authorityStart..<pathStart])
        if host.allSatisfy({ $0 < 0x80 }) {
            for byte in bytes[authorityStart..<hostEnd(bytes)] {
                out.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
        } else {
            // Non-ASCII host (an IRI): Unicode lower-casing, then the same port rules.
            var lowered = String(decoding: host, as: UTF8.self).lowercased()
            let port = isHTTPS ? ":443" : ":80"
            if lowered.hasSuffix(port) { lowered.removeLast(port.count) }
            if lowered.hasSuffix(":") { lowered.removeLast() }
            out.append(contentsOf: lowered.utf8)
        }
        if pathStart == end || bytes[pathStart] == UInt8(ascii: "?") { out.append(UInt8(ascii: "/")) }
        var i = pathStart
        while i < end {
            if i + 2 < end, bytes[i] == UInt8(ascii: "%"), bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit {
                out.append(bytes[i])
                out.append(bytes[i + 1].uppercasedHex)
                out.append(bytes[i + 2].uppercasedHex)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }

    fileprivate var uppercasedHex: UInt8 { (0x61...0x66).contains(self) ? self - 0x20 : self }
}
