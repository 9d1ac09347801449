public import HTTPTypes

/// The secondary cache key (RFC 9111 §4.1): the request's values of the fields a stored
/// response's `Vary` names, normalised only where the field's syntax makes two forms the
/// same value.
///
/// Normalisation: the field lines are trimmed of white space and combined with `", "`. A
/// field whose syntax the cache knows — `Accept`, `Accept-Charset`, `Accept-Encoding`,
/// `Accept-Language` — is then rewritten in its canonical form: no white space around `,`
/// and `;`, media types, codings, language ranges and parameter names lower-cased, parameter
/// values and quoted strings kept (`charset` values excepted, which are case-insensitive).
/// Any other field, and a known one whose value does not follow its grammar, is compared
/// exactly. A field absent from the request is recorded as absent, which matches only another
/// request without that field.
///
/// ```swift
/// // Stored for "Accept-Encoding: gzip,br"; "gzip, br" matches, "br, gzip" does not.
/// // Stored for "X-Mode: a  b"; "a b" does not match (the syntax of X-Mode is unknown).
/// ```
public struct VaryKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One selecting field: its lower-cased name and normalised request value (`nil` = absent).
    public struct Field: Sendable, Hashable, Codable {
        /// The field name, lower-cased.
        public let name: String
        /// The normalised value the request had, or `nil` when it had none.
        public let value: String?

        /// A field as stored (name lower-cased, value normalised), taken as it is: for the
        /// store, which keeps keys exactly as they were made.
        package init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The selecting fields in the order `Vary` lists them (duplicates removed).
    public let fields: [Field]
    /// Whether the response said `Vary: *` (it then never matches another request).
    public let isWildcard: Bool

    /// A key with no selecting fields: the response does not vary.
    public static let none = VaryKey(fields: [], isWildcard: false)

    /// A key from its parts, taken as they are (nothing is normalised again): for the store,
    /// so a key written under an earlier normalisation reads back unchanged.
    package init(fields: [Field], isWildcard: Bool) {
        self.fields = fields
        self.isWildcard = isWildcard
    }

    /// The secondary key a response with these `responseHeaders` gets for `requestHeaders`.
    public init(responseHeaders: HTTPFields, requestHeaders: HTTPFields) {
        let names = Self.varyNames(responseHeaders)
        if names.contains("*") {
            self.init(fields: [], isWildcard: true)
        } else {
            self.init(
                fields: names.map { Field(name: $0, value: Self.normalizedValue(of: $0, in: requestHeaders)) },
                isWildcard: false)
        }
    }

    /// Whether a new request with `requestHeaders` selects a response stored under this key.
    /// Returns the names of the fields that differ (empty when it matches).
    public func mismatchedFields(for requestHeaders: HTTPFields) -> [String] {
        if isWildcard { return ["*"] }
        return fields.compactMap { field in
            Self.normalizedValue(of: field.name, in: requestHeaders) == field.value ? nil : field.name
        }
    }

    /// A stable string form, suitable as the variant part of a store key
    /// (empty when the response does not vary).
    public var signature: String {
        if isWildcard { return "*" }
        if fields.isEmpty { return "" }  // most responses: asked on every store and freshen
        return fields.map { "\($0.name)=\($0.value.map { "\"\($0)\"" } ?? "-")" }.joined(separator: "&")
    }

    public var description: String { signature.isEmpty ? "(no Vary)" : signature }

    // MARK: Field handling

    /// The lower-cased field names a `Vary` header lists (all lines), without duplicates.
    public static func varyNames(_ headers: HTTPFields) -> [String] {
        guard headers.contains(.vary) else { return [] }
        var seen = Set<String>()
        var names: [String] = []
        for line in headers[values: .vary] {
            for member in FieldListScanner.members(line) {
                let name = member.lowercased()
                if seen.insert(name).inserted { names.append(name) }
            }
        }
        return names
    }

    /// The request's value of one selecting field (lower-cased `name`) as the key records it;
    /// `nil` when the request does not have the field.
    static func normalizedValue(of name: String, in headers: HTTPFields) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let lines = headers[values: fieldName]
        guard !lines.isEmpty else { return nil }
        let combined = trimmed(lines.map(trimmed).joined(separator: ", "))
        guard let syntax = NegotiationList.Syntax(field: name) else { return combined }
        return NegotiationList.normalized(combined, syntax: syntax) ?? combined
    }

    /// The text without leading and trailing OWS (space and tab).
    private static func trimmed(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !FieldListScanner.isSpace($0) }),
            let last = bytes.lastIndex(where: { !FieldListScanner.isSpace($0) })
        else { return "" }
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return text }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
