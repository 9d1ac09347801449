import Foundation
import PropertyBased
import Testing
@testable import HTTPCaching

/// `CacheKey.normalize` is a byte scanner written for speed (it runs on every request). This
/// suite checks it against a slow, obviously-correct oracle written with `String` operations
/// — the implementation it replaced — over URIs assembled from the parts that steer it.
@Suite("CacheKey normalisation matches its oracle")
struct CacheKeyOracleTests {
    /// The reference: RFC 3986 §6.2.2 / RFC 9110 §4.2.3 with String operations. Delimiters
    /// are found as bytes (a "/" followed by a combining mark is still a delimiter), and a
    /// host may not start with a combining mark (it would merge with the "/" before it).
    static func oracle(_ uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let scheme = uri[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = uri[schemeEnd.upperBound...]
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        let pathStart = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? rest.endIndex
        var authority = rest[..<pathStart]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.utf8.index(after: at)...] }
        guard !authority.isEmpty, authority.startIndex.samePosition(in: uri) != nil else { return nil }
        var host = authority.lowercased()
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        if host.hasSuffix(":") { host.removeLast() }
        var pathAndQuery = String(rest[pathStart...])
        if pathAndQuery.isEmpty || pathAndQuery.utf8.first == UInt8(ascii: "?") { pathAndQuery = "/" + pathAndQuery }
        var bytes = Array(pathAndQuery.utf8)
        var i = 0
        let hex = Set("0123456789abcdefABCDEF".utf8)
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), hex.contains(bytes[i + 1]), hex.contains(bytes[i + 2]) {
                bytes[i + 1] = Character(UnicodeScalar(bytes[i + 1])).uppercased().utf8.first!
                bytes[i + 2] = Character(UnicodeScalar(bytes[i + 2])).uppercased().utf8.first!
                i += 3
            } else {
                i += 1
            }
        }
        return "\(scheme)://\(host)\(String(decoding: bytes, as: UTF8.self))"
    }

    static let parts: [String] = [
        "http", "https", "HTTP", "HtTpS", "ftp", "://", ":", "//", "/", "?", "#", "@", ":80", ":443", ":8080",
        "Example.COM", "a", "B", "%", "%2f", "%7e", "%2F", "%g1", "%a", "é", "É", "\u{301}", "😀", "x.y", "=", "&", " ", "",
    ]

    @Test("§2 the byte scanner and the String oracle agree on assembled URIs")
    func agreesWithOracle() async {
        let uris = Gen<String?>.element(of: Self.parts).map { $0! }.array(of: 0...10).map { $0.joined() }
        await propertyCheck(count: 3000, input: uris) { uri in
            #expect(CacheKey.normalize(uri) == Self.oracle(uri), "\(uri)")
        }
        await propertyCheck(count: 1000, input: uris) { tail in
            for uri in ["http://" + tail, "HTTPS://user@Host" + tail, "https://h" + tail] {
                #expect(CacheKey.normalize(uri) == Self.oracle(uri), "\(uri)")
            }
        }
    }

    @Test("§2 a URI that is already normal comes back unchanged", arguments: [
        "http://example.com/", "https://example.com:8443/a/b?q=%2F", "http://h/?", "https://h/%C3%A9",
    ])
    func normalIsUnchanged(uri: String) {
        #expect(CacheKey.normalize(uri) == uri)
    }

    @Test("§2 each difference from the normal form is mended", arguments: [
        ("HTTP://Example.COM", "http://example.com/"),
        ("https://user:pw@h.example:443?x", "https://h.example/?x"),
        ("http://h:80/a%2fb#frag", "http://h/a%2Fb"),
        ("http://h:/p", "http://h/p"),
        ("http://ÉTÉ.example/", "http://été.example/"),
    ])
    func mended(uri: String, expected: String) {
        #expect(CacheKey.normalize(uri) == expected)
    }

    @Test("§2 what is not an absolute http(s) URI has no key", arguments: [
        "", "example.com/a", "ftp://h/", "http:/h/", "http://", "http:///a", "http://user@/a", "mailto://x", "https//h/",
    ])
    func rejected(uri: String) {
        #expect(CacheKey.normalize(uri) == nil)
    }
}
