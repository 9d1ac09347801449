import HTTPTypes

/// RFC 9110 §7.6.1: the fields that concern one connection only, removed from every message
/// the proxy forwards, in both directions, along with each field the message's `Connection`
/// names.
enum HopByHopFields {
    /// The fixed list (lower case): RFC 9110's `Connection`, `Proxy-Connection`, `Keep-Alive`,
    /// `TE`, `Transfer-Encoding`, `Upgrade`, plus `Trailer` (RFC 9110 §6.6.2 describes only this
    /// connection's chunked framing, which is re-framed here).
    static let names: [String] = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", "trailer",
    ]

    /// `fields` without the hop-by-hop fields, those `Connection` names, and any of `extra`
    /// (lower-case names the proxy sets itself, such as `content-length`).
    static func removing(from fields: HTTPFields, alsoRemoving extra: [String] = []) -> HTTPFields {
        var removed = names + extra
        for line in fields[values: .connection] {
            for member in line.split(separator: ",") {
                let name = member.trimmingCharacters(in: " \t").lowercased()
                if !name.isEmpty { removed.append(name) }
            }
        }
        var kept = HTTPFields()
        kept.reserveCapacity(fields.count)
        for field in fields where !removed.contains(field.name.canonicalName) { kept.append(field) }
        return kept
    }

    /// `fields` with `received-protocol pseudonym` appended to `Via` (RFC 9110 §7.6.3): after
    /// whatever `Via` it already had, so the list reads from the origin's side to the client's.
    static func addingVia(_ fields: HTTPFields, protocolVersion: String, pseudonym: String) -> HTTPFields {
        var fields = fields
        fields.append(HTTPField(name: .via, value: "\(protocolVersion) \(pseudonym)"))
        return fields
    }
}

extension Substring {
    /// The text without leading and trailing characters of `set` (space and tab in field
    /// values), without Foundation.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}

extension HTTPField.Name {
    /// `Cache-Status` (RFC 9211); swift-http-types does not name it.
    static var cacheStatus: Self { Self("Cache-Status")! }
}
