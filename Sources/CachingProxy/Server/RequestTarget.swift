import Foundation

/// A request line's target as a server reads it (RFC 9112 §3.2): the proxy's requests, and the
/// `/metrics` endpoint's.
package enum RequestTarget {
    /// The path and query: the target itself in origin form, the part after the authority in
    /// absolute form (RFC 9112 §3.2.2: a server accepts both); `nil` otherwise.
    package static func pathAndQuery(of target: String) -> String? {
        if target.hasPrefix("/") { return target }
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), let components = URLComponents(string: target),
            components.host != nil
        else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
