import HTTPCaching
import HTTPTypes

/// What the proxy removes from and adds to every message it forwards, in both directions.
enum HopByHopFields {
    /// `fields` without the hop-by-hop fields and those `Connection` names
    /// (`HTTPFields.removingHopByHop`), plus `Trailer` (RFC 9110 §6.6.2 describes only this
    /// connection's chunked framing, which is re-framed here) and any of `extra` (lower-case
    /// names the proxy sets itself, such as `content-length`).
    static func removing(from fields: HTTPFields, alsoRemoving extra: [String] = []) -> HTTPFields {
        fields.removingHopByHop(alsoRemoving: ["trailer"] + extra)
    }

    /// `fields` with `received-protocol pseudonym` appended to `Via` (RFC 9110 §7.6.3): after
    /// whatever `Via` it already had, so the list reads from the origin's side to the client's.
    static func addingVia(_ fields: HTTPFields, protocolVersion: String, pseudonym: String) -> HTTPFields {
        var fields = fields
        fields.append(HTTPField(name: .via, value: "\(protocolVersion) \(pseudonym)"))
        return fields
    }
}

extension HTTPField.Name {
    /// `Cache-Status` (RFC 9211); swift-http-types does not name it.
    static let cacheStatus = Self("Cache-Status")!
}
