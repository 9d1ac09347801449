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
        // Unicode scalars, not Characters: a quote followed by a combining mark is one
        // Character but still a quote (and a space followed by one is still a space).
        var rest = Substring(text).unicodeScalars
        while let first = rest.first, first == " " || first == "\t" { rest = rest.dropFirst() }
        while let last = rest.last, last == " " || last == "\t" { rest = rest.dropLast() }
        var weak = false
        if rest.count >= 2, rest.first == "W" || rest.first == "w", rest[rest.index(after: rest.startIndex)] == "/" {
            weak = true
            rest = rest.dropFirst(2)
        }
        if rest.first == "\"" {
            guard rest.count >= 2, rest.last == "\"" else { return nil }
            let inner = rest.dropFirst().dropLast()
            guard !inner.contains("\"") else { return nil }
            self.init(opaqueTag: String(inner), isWeak: weak)
        } else {
            guard !rest.isEmpty, !rest.contains(where: { $0 == " " || $0 == "\"" || $0 == "," || $0 == "\t" }) else {
                return nil
            }
            self.init(opaqueTag: String(rest), isWeak: weak)
        }
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
