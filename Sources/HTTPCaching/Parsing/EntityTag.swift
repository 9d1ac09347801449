/// An entity tag (RFC 9110 §8.8.3): an opaque validator, strong or weak.
///
/// ```swift
/// let tag = EntityTag(parsing: "W/\"v1\"")   // weak, opaque "v1"
/// tag?.description                          // W/"v1"
/// ```
public struct EntityTag: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Whether the tag is weak (`W/` prefix).
    public let isWeak: Bool
    /// The opaque tag without quotes.
    public let opaqueTag: String

    /// Creates a tag from its parts.
    public init(opaqueTag: String, isWeak: Bool = false) {
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
    }

    /// Parses one entity-tag; `nil` when the text is not one. Unquoted tags, which some
    /// servers send, are accepted as strong tags when they contain no spaces, quotes or commas.
    public init?(parsing text: some StringProtocol) {
        // A byte scan: every delimiter here is ASCII, and in UTF-8 a byte below 0x80 is always
        // a whole scalar, so a quote followed by a combining mark is still a quote (as it is
        // to a Unicode-scalar reading) — and no Character or scalar index is ever built.
        var string = String(text)
        guard let parsed = string.withUTF8({ Self.scan($0) }) else { return nil }
        self.init(opaqueTag: parsed.tag, isWeak: parsed.isWeak)
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (tag: String, isWeak: Bool)? {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        var isWeak = false
        if end - start >= 2, bytes[start] | 0x20 == UInt8(ascii: "w"), bytes[start + 1] == UInt8(ascii: "/") {
            isWeak = true
            start += 2
        }
        if start < end, bytes[start] == quote {
            guard end - start >= 2, bytes[end - 1] == quote else { return nil }
            let inner = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)])
            guard !inner.contains(quote) else { return nil }
            return (String(decoding: inner, as: UTF8.self), isWeak)
        }
        let rest = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard !rest.isEmpty, !rest.contains(where: { $0 == space || $0 == quote || $0 == comma || $0 == tab }) else { return nil }
        return (String(decoding: rest, as: UTF8.self), isWeak)
    }

    /// The tag as written in a field: `"abc"` or `W/"abc"`.
    public var description: String { (isWeak ? "W/" : "") + "\"\(opaqueTag)\"" }

    /// Strong comparison (RFC 9110 §8.8.3.2): both strong and identical.
    public func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// Weak comparison: identical opaque tags, whatever their weakness.
    public func matchesWeakly(_ other: EntityTag) -> Bool { opaqueTag == other.opaqueTag }
}

/// The value of `If-None-Match` / `If-Match`: `*` or a list of entity tags.
public enum EntityTagList: Sendable, Hashable, CustomStringConvertible {
    /// `*`: any current representation.
    case any
    /// A list of tags (members that are not valid tags are dropped).
    case tags([EntityTag])

    /// Parses a field value.
    public init(parsing text: String) {
        let members = FieldListScanner.members(text)
        if members.contains("*") {
            self = .any
        } else {
            self = .tags(members.compactMap { EntityTag(parsing: $0) })
        }
    }

    /// Whether `tag` matches by weak comparison (what `If-None-Match` uses).
    public func containsWeakMatch(for tag: EntityTag) -> Bool {
        switch self {
        case .any: return true
        case .tags(let tags): return tags.contains { $0.matchesWeakly(tag) }
        }
    }

    public var description: String {
        switch self {
        case .any: return "*"
        case .tags(let tags): return tags.map(\.description).joined(separator: ", ")
        }
    }
}
