public import HTTPTypes

/// The tags (surrogate keys) a response carries in `Surrogate-Key` or a configured field, in
/// Fastly's syntax: tags separated by spaces, each a run of visible ASCII characters.
///
/// A purge by tag (`purge tag:NAME`) removes every stored response that carries the tag. The
/// origin decides the tags; a cache must not fail a response over them, so excess is ignored,
/// never an error:
/// - at most ``maximumCount`` (64) tags per response, the first ones in field order (all
///   field lines joined by a space, duplicates counted once);
/// - a tag longer than ``maximumLength`` (256 bytes) is left out;
/// - a character other than visible ASCII (`!`…`~`) separates tags, as a space does.
///
/// ```swift
/// SurrogateKeys.parse(["product-42 category/shoes  product-42"])   // ["product-42", "category/shoes"]
/// ```
public enum SurrogateKeys {
    /// The most tags kept per response: 64.
    public static let maximumCount = 64
    /// The longest tag kept, in bytes: 256.
    public static let maximumLength = 256
    /// The field read by default: `Surrogate-Key`.
    public static let defaultFieldName = "Surrogate-Key"

    /// The tags in the values of one field (each value a field line), within the limits.
    public static func parse(_ values: [String]) -> [String] {
        var tags: [String] = []
        var seen = Set<String>()
        for value in values {
            for tag in value.utf8.split(whereSeparator: { $0 <= 0x20 || $0 >= 0x7F }) {
                guard tag.count <= maximumLength, let text = String(tag) else { continue }
                guard seen.insert(text).inserted else { continue }
                tags.append(text)
                if tags.count == maximumCount { return tags }
            }
        }
        return tags
    }

    /// The tags `fields` carry in the field `name`.
    public static func tags(in fields: HTTPFields, fieldName name: HTTPField.Name) -> [String] {
        parse(fields[values: name])
    }

    /// Whether `tag` is one a response could carry: 1 to ``maximumLength`` bytes of visible
    /// ASCII. `nil` when it is; otherwise what is wrong, in words.
    public static func problem(with tag: String) -> String? {
        if tag.isEmpty { return "a tag must not be empty" }
        if tag.utf8.count > maximumLength { return "a tag is at most \(maximumLength) bytes (this one is \(tag.utf8.count))" }
        if let bad = tag.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            return "a tag is visible ASCII without spaces; \"\(tag)\" holds U+\(String(bad.value, radix: 16, uppercase: true))"
        }
        return nil
    }
}
