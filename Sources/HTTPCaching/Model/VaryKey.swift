import HTTPTypes

/// The secondary cache key (RFC 9111 §4.1): the request's values of the fields a stored
/// response's `Vary` names, normalised so that semantically equal values compare equal.
///
/// Normalisation: field lines are combined, list members trimmed and re-joined with `", "`,
/// runs of white space collapsed; values of the `Accept*` fields (case-insensitive tokens)
/// are lower-cased. A field absent from the request is recorded as absent, which matches only
/// another request without that field.
public struct VaryKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One selecting field: its lower-cased name and normalised request value (`nil` = absent).
    public struct Field: Sendable, Hashable, Codable {
        /// The field name, lower-cased.
        public let name: String
        /// The normalised value the request had, or `nil` when it had none.
        public let value: String?
    }

    /// The selecting fields in the order `Vary` lists them (duplicates removed).
    public let fields: [Field]
    /// Whether the response said `Vary: *` (it then never matches another request).
    public let isWildcard: Bool

    /// A key with no selecting fields: the response does not vary.
    public static let none = VaryKey(fields: [], isWildcard: false)

    init(fields: [Field], isWildcard: Bool) {
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

    static func normalizedValue(of name: String, in headers: HTTPFields) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let lines = headers[values: fieldName]
        guard !lines.isEmpty else { return nil }
        let members = lines.flatMap { FieldListScanner.members($0) }.map(collapseWhitespace)
        let joined = members.joined(separator: ", ")
        return name.hasPrefix("accept") ? joined.lowercased() : joined
    }

    private static func collapseWhitespace(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for character in text {
            if character == " " || character == "\t" {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        return result
    }
}
