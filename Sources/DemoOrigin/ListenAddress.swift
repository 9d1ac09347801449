#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - HOST:PORT as typed on a command line

/// A listening address parsed from `HOST:PORT` text, e.g. `127.0.0.1:8080`, `localhost:0` or
/// `[::1]:8080` (IPv6 hosts in brackets).
///
/// ```swift
/// let address = try ListenAddress(parsing: "127.0.0.1:8080")
/// let origin = try await DemoOrigin.start(host: address.host, port: address.port)
/// ```
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host or IP address, without brackets.
    public var host: String
    /// The port, 0...65535; 0 asks for any free port.
    public var port: Int

    /// Creates an address from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`.
    ///
    /// - Throws: ``ListenAddressError`` saying which part is wrong and how it should look.
    public init(parsing text: String) throws(ListenAddressError) {
        if text.contains("://") { throw .url(text) }
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .unclosedBracket(text) }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .missingPort(text) }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .missingPort(text) }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") { throw Self.isIPv6(hostPart) ? .unbracketedIPv6(text) : .invalidHost(text) }
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == " " || $0 == "/" }) else {
            throw .invalidHost(text)
        }
        guard !portPart.isEmpty, portPart.count <= 5, portPart.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let port = Int(portPart), port <= 65_535
        else { throw .invalidPort(text) }
        self.init(host: String(hostPart), port: port)
    }

    /// Whether `text` is an IPv6 address (`::1`, `fe80::1`).
    private static func isIPv6(_ text: Substring) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, String(text), &address) == 1
    }

    /// Whether binding both addresses would ask for one socket twice: the same port (not 0,
    /// which picks a free one) on hosts that can be the same interface — the same text, in
    /// any case; `localhost` and a loopback address; the IPv6 wildcard (`::`, dual-stack) and
    /// any host; the IPv4 wildcard (`0.0.0.0`) and any host but an IPv6 address. (`127.0.0.1`
    /// and `::1` are different sockets.)
    public func mayClash(with other: ListenAddress) -> Bool {
        guard port != 0, port == other.port else { return false }
        let (a, b) = (host.lowercased(), other.host.lowercased())
        if a == b { return true }
        let anyIPv6: Set = ["::", "0:0:0:0:0:0:0:0"]
        if anyIPv6.contains(a) || anyIPv6.contains(b) { return true }
        // An IPv6 address has a colon; a name may resolve to IPv4.
        if a == "0.0.0.0" { return !b.contains(":") }
        if b == "0.0.0.0" { return !a.contains(":") }
        let loopbacks: Set = ["localhost", "127.0.0.1", "::1"]
        return (a == "localhost" && loopbacks.contains(b)) || (b == "localhost" && loopbacks.contains(a))
    }

    /// `HOST:PORT`, with IPv6 hosts bracketed.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Why `HOST:PORT` text could not be parsed; each message shows the expected form.
public enum ListenAddressError: Error, Equatable, CustomStringConvertible {
    /// No `:PORT` at the end.
    case missingPort(String)
    /// The port is not a number from 0 to 65535.
    case invalidPort(String)
    /// The host is empty or contains a space or slash.
    case invalidHost(String)
    /// An IPv6 address without brackets, so host and port cannot be told apart.
    case unbracketedIPv6(String)
    /// A `[` without the matching `]`.
    case unclosedBracket(String)
    /// A URL (`http://127.0.0.1:8080`) where only `HOST:PORT` goes.
    case url(String)

    /// A sentence saying what is wrong and what a valid address looks like.
    public var description: String {
        switch self {
        case .missingPort(let text):
            "'\(text)' has no port: use HOST:PORT, e.g. 127.0.0.1:8080"
        case .invalidPort(let text):
            "'\(text)' has an invalid port: use a number from 0 to 65535 (0 picks a free port)"
        case .invalidHost(let text):
            "'\(text)' has an invalid host: use a host name or IP address, e.g. 127.0.0.1:8080"
        case .unbracketedIPv6(let text):
            "'\(text)' looks like an IPv6 address: put it in brackets, e.g. [::1]:8080"
        case .unclosedBracket(let text):
            "'\(text)' opens '[' without closing it: use [IPv6]:PORT, e.g. [::1]:8080"
        case .url(let text):
            "'\(text)' is a URL: give only HOST:PORT, e.g. 127.0.0.1:8080"
        }
    }
}
