import Foundation

/// The one origin a ``CachingProxy`` forwards to: a scheme and an authority, parsed from
/// `--origin` text such as `http://127.0.0.1:8080` or `https://example.com`.
///
/// A path is refused rather than guessed at: every request's own path is forwarded as it came.
///
/// ```swift
/// let origin = try ProxyOrigin(parsing: "http://127.0.0.1:8080")
/// origin.authority   // "127.0.0.1:8080"
/// ```
public struct ProxyOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// `host` or `host:port` (IPv6 hosts bracketed), as sent in `Host`.
    public let authority: String
    /// The host as given (an IPv6 address without its brackets).
    public let host: String
    /// The port connected to: the one given, else the scheme's (80 or 443).
    public let port: Int

    /// Parses an absolute `http://` or `https://` URL with no path, query or user information.
    /// - Throws: ``CachingProxyError/invalidOrigin(_:problem:)`` naming what is wrong.
    public init(parsing text: String) throws(CachingProxyError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidOrigin(text, problem: "it is not a URL; use http://HOST[:PORT] or https://HOST[:PORT]")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .invalidOrigin(text, problem: "the scheme must be http or https, not \(scheme)")
        }
        guard let host = components.percentEncodedHost, !host.isEmpty else {
            throw .invalidOrigin(text, problem: "it has no host; use e.g. http://127.0.0.1:8080")
        }
        // Foundation percent-encodes a host with letters beyond ASCII; nothing resolves that.
        if let name = components.host, name.unicodeScalars.contains(where: { !$0.isASCII }) {
            throw .invalidOrigin(
                text, problem: "the host \(name) is not ASCII; give its ASCII (punycode) form, as `idn2 \(name)` prints it: http://xn--…")
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidOrigin(text, problem: "user information is not supported; send Authorization from the client")
        }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
            components.percentEncodedQuery == nil, components.fragment == nil
        else {
            throw .invalidOrigin(text, problem: "give the origin without a path, query or fragment (each request's path is forwarded as it came)")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw .invalidOrigin(text, problem: "port \(port) is out of range (1–65535)")
        }
        self.scheme = scheme
        self.host = Self.unbracketed(host)
        port = components.port ?? (scheme == "https" ? 443 : 80)
        authority = components.port.map { Self.authority(host: host, port: $0) } ?? Self.authority(host: host, port: nil)
    }

    /// `host` without the brackets of an IPv6 address (`[::1]` → `::1`).
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// `host:port` (or `host` without a port), an IPv6 address in brackets.
    static func authority(host: String, port: Int?) -> String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    /// `scheme://authority`, e.g. `http://127.0.0.1:8080`.
    public var description: String { "\(scheme)://\(authority)" }
}
