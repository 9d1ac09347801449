// MARK: - Entity tags (RFC 9110 §8.8.3)

/// Entity-tag helpers: making deterministic strong tags and matching `If-None-Match`.
enum EntityTag {
    /// A strong entity tag (quoted) derived from `seed` with 64-bit FNV-1a, so the same content
    /// always gets the same tag across runs and servers.
    static func strong(for seed: String) -> String {
        "\"\(hexDigest(seed))\""
    }

    /// 16 lowercase hex digits of the 64-bit FNV-1a hash of `seed`'s UTF-8 bytes.
    static func hexDigest(_ seed: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether an `If-None-Match` field value matches `etag` using the weak comparison function
    /// (RFC 9110 §13.1.2): `*` matches any current representation; otherwise the list members'
    /// opaque tags are compared, ignoring any `W/` prefix on either side.
    static func ifNoneMatch(_ fieldValue: String, matches etag: String) -> Bool {
        let trimmed = fieldValue.trimmingASCIIWhitespace()
        if trimmed == "*" { return true }
        let target = opaqueTag(etag)
        return members(of: fieldValue).contains { opaqueTag($0) == target }
    }

    /// The tags of a comma-separated entity-tag list. Commas inside quotes belong to the tag
    /// (`etagc` allows them), so this scans instead of splitting.
    static func members(of list: String) -> [Substring] {
        var result: [Substring] = []
        var index = list.startIndex
        while index < list.endIndex {
            // Skip separators and whitespace before a member.
            while index < list.endIndex, list[index] == "," || list[index] == " " || list[index] == "\t" {
                index = list.index(after: index)
            }
            guard index < list.endIndex else { break }
            let start = index
            if list[index...].hasPrefix("W/") { index = list.index(index, offsetBy: 2) }
            if index < list.endIndex, list[index] == "\"" {
                index = list.index(after: index)
                while index < list.endIndex, list[index] != "\"" { index = list.index(after: index) }
                if index < list.endIndex { index = list.index(after: index) }
            } else {
                // Not a valid entity-tag: take it up to the next comma so scanning goes on.
                while index < list.endIndex, list[index] != "," { index = list.index(after: index) }
            }
            result.append(list[start..<index])
        }
        return result
    }

    /// The quoted opaque tag without the weakness indicator.
    private static func opaqueTag<S: StringProtocol>(_ tag: S) -> Substring {
        let sub = Substring(tag).trimmingASCIIWhitespace()
        return sub.hasPrefix("W/") ? sub.dropFirst(2) : sub
    }
}

extension StringProtocol {
    /// The value without leading and trailing spaces and tabs (HTTP's OWS).
    func trimmingASCIIWhitespace() -> Substring {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let sub = Substring(self)
        guard let first = sub.firstIndex(where: { !isOWS($0) }),
            let last = sub.lastIndex(where: { !isOWS($0) })
        else { return sub[sub.endIndex...] }
        return sub[first...last]
    }
}
