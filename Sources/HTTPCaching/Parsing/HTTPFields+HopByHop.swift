public import HTTPTypes

extension HTTPFields {
    /// RFC 9110 §7.6.1: the fields that concern one connection only (lower case).
    public static let hopByHopNames: [String] = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
    ]

    /// The fields without the hop-by-hop ones (``hopByHopNames``), those each `Connection`
    /// field names, and any of `extra` (lower-case names). Usually nothing is removed, and then
    /// the fields come back as they are, without a copy.
    public func removingHopByHop(alsoRemoving extra: [String] = []) -> HTTPFields {
        // A short list searched in order rather than a Set: a handful of names, compared with
        // every field of every message, cost less than hashing.
        var removed = Self.hopByHopNames + extra
        if contains(.connection) {
            for line in self[values: .connection] {
                for member in FieldListScanner.members(line) { removed.append(member.lowercased()) }
            }
        }
        guard contains(where: { removed.contains($0.name.canonicalName) }) else { return self }
        var kept = HTTPFields()
        kept.reserveCapacity(count)
        for field in self where !removed.contains(field.name.canonicalName) { kept.append(field) }
        return kept
    }
}
