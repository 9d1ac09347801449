/// An optional that a synthesized `Codable` writes as `null` when it has no value, instead of
/// leaving its key out: the stable JSON reports (``SessionSummaryReport``, the `--stats-every`
/// lines) always carry every documented key, so scripts can rely on them.
///
/// ```swift
/// struct Line: Codable {
///     @ExplicitNull var hitRatio: Double?
/// }
/// // {"hitRatio":null}
/// ```
///
/// Decoding takes `null` and, for older or hand-written JSON, a missing key as no value.
@propertyWrapper
public struct ExplicitNull<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The value, or `nil`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads the value, or `null` as no value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as no value (a synthesized `init(from:)` asks for every key).
    public func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}
