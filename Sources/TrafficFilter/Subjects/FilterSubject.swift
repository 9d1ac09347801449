public import CacheStore
public import HTTPCaching
public import HTTPTypes

/// Something a ``Filter`` can be matched against: a request, a stored entry, a request
/// assembled from events. Each property is one field's value, or `nil` when the field does
/// not apply to this kind of row — then every predicate on it is false (so `outcome:miss`
/// matches no entry, and `!outcome:miss` every entry).
///
/// Every requirement has a default of `nil` (the host's comes from ``filterURL``), so a
/// conformer states only the fields it has:
///
/// ```swift
/// struct Row: FilterSubject {
///     var filterURL: String? { "https://example.com/a" }
///     var filterStatus: Int? { 200 }
/// }
/// try Filter("host:example.com & status:200").matches(Row())   // true
/// ```
public protocol FilterSubject {
    /// `outcome`: the outcome, once known.
    var filterOutcome: CacheOutcome? { get }
    /// `reason`: why it had its outcome.
    var filterReason: String? { get }
    /// `status`: the status code.
    var filterStatus: Int? { get }
    /// `method`: the request method.
    var filterMethod: String? { get }
    /// `url`, and plain text: the absolute URL.
    var filterURL: String? { get }
    /// `host`: the URL's host (default: taken from ``filterURL``).
    var filterHost: Substring? { get }
    /// `ttl`: seconds of freshness left (negative once stale).
    var filterTTL: Double? { get }
    /// `age`: the response's age in seconds.
    var filterAge: Double? { get }
    /// `size`: bytes.
    var filterSize: Int? { get }
    /// `tier`: where it is stored.
    var filterTier: EntryTier? { get }
    /// `bg`: whether it is the cache's own background refresh.
    var filterIsBackground: Bool? { get }
    /// `tag`: its tags (surrogate keys); `nil` for rows that have none by nature (requests).
    var filterTags: [String]? { get }
    /// `instance`: the name of the instance it belongs to, when a dashboard watches several
    /// (`cachescope attach S1 S2 …`); `nil` when it watches one.
    var filterInstance: String? { get }
    /// `h:NAME`: the values of the header field `name` (request and response); empty when absent.
    func filterHeaderValues(_ name: HTTPField.Name) -> [String]
    /// Whether a value of the header field `name` satisfies `predicate` (default: over
    /// ``filterHeaderValues(_:)``; a conformer can answer without collecting the values).
    func filterHeaderContains(_ name: HTTPField.Name, where predicate: (String) -> Bool) -> Bool
}

extension FilterSubject {
    /// Not applicable.
    public var filterOutcome: CacheOutcome? { nil }
    /// Not applicable.
    public var filterReason: String? { nil }
    /// Not applicable.
    public var filterStatus: Int? { nil }
    /// Not applicable.
    public var filterMethod: String? { nil }
    /// Not applicable.
    public var filterURL: String? { nil }
    /// The host of ``filterURL``.
    public var filterHost: Substring? { filterURL.flatMap(URLHost.of) }
    /// Not applicable.
    public var filterTTL: Double? { nil }
    /// Not applicable.
    public var filterAge: Double? { nil }
    /// Not applicable.
    public var filterSize: Int? { nil }
    /// Not applicable.
    public var filterTier: EntryTier? { nil }
    /// Not applicable.
    public var filterIsBackground: Bool? { nil }
    /// Not applicable.
    public var filterTags: [String]? { nil }
    /// Not applicable (one instance).
    public var filterInstance: String? { nil }
    /// No header fields.
    public func filterHeaderValues(_ name: HTTPField.Name) -> [String] { [] }
    /// Whether a value of ``filterHeaderValues(_:)`` satisfies `predicate`.
    public func filterHeaderContains(_ name: HTTPField.Name, where predicate: (String) -> Bool) -> Bool {
        filterHeaderValues(name).contains(where: predicate)
    }
}

/// The host part of an absolute URL, without parsing the rest: `https://user@Example.com:8443/a`
/// → `Example.com`; `[::1]` for IPv6 literals.
public enum URLHost {
    /// The host of `url`, or `nil` when it has no `scheme://`.
    public static func of(_ url: String) -> Substring? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        var authority = url[url.index(colon, offsetBy: 3)...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.first == "[", let close = authority.firstIndex(of: "]") { return authority[...close] }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return authority
    }
}
