import HTTPTypes

/// A parsed `Cache-Control` field (RFC 9111 §5.2), for requests and responses alike.
///
/// Directive names are case-insensitive; arguments may be tokens or quoted-strings; every
/// field line is read. Repeated delta-seconds directives with different values are reported as
/// ``DeltaSeconds/conflicting(_:)`` and unknown directives are kept in ``extensions``.
///
/// ```swift
/// let cc = CacheControl("public, max-age=60, stale-while-revalidate=30")
/// cc.maxAge             // .seconds(60)
/// cc.isPublic           // true
/// ```
public struct CacheControl: Sendable, Hashable {
    /// Every directive in field order, names lower-cased.
    public let directives: [Directive]

    /// `max-age` (request and response).
    public let maxAge: DeltaSeconds
    /// `s-maxage` (response; shared caches only).
    public let sharedMaxAge: DeltaSeconds
    /// `min-fresh` (request).
    public let minFresh: DeltaSeconds
    /// `stale-while-revalidate` (RFC 5861, response).
    public let staleWhileRevalidate: DeltaSeconds
    /// `stale-if-error` (RFC 5861, request and response).
    public let staleIfError: DeltaSeconds
    /// `max-stale` (request): `nil` when absent, `.unlimited` without a value.
    public let maxStale: MaxStale?
    /// `no-cache`, with its field names when qualified (`no-cache="Set-Cookie"`).
    public let noCache: FieldQualifiedDirective
    /// `private`, with its field names when qualified.
    public let privateDirective: FieldQualifiedDirective
    /// `no-store`.
    public let noStore: Bool
    /// `no-transform`.
    public let noTransform: Bool
    /// `only-if-cached` (request).
    public let onlyIfCached: Bool
    /// `must-revalidate` (response).
    public let mustRevalidate: Bool
    /// `proxy-revalidate` (response; shared caches only).
    public let proxyRevalidate: Bool
    /// `must-understand` (response).
    public let mustUnderstand: Bool
    /// `public` (response).
    public let isPublic: Bool
    /// `immutable` (RFC 8246, response).
    public let immutable: Bool
    /// Directives this cache does not know, kept so they can be shown and forwarded.
    public let extensions: [Directive]

    /// One directive as written: a lower-cased name and its argument, if any.
    public struct Directive: Sendable, Hashable, CustomStringConvertible {
        /// The directive name, lower-cased.
        public let name: String
        /// The argument without quotes, or `nil` when the directive had none.
        public let value: String?

        /// `name`, `name=token` or `name="quoted string"` (with `"` and `\` escaped, RFC 9110 §5.6.4).
        public var description: String {
            guard let value else { return name }
            if value.utf8.allSatisfy(FieldListScanner.isTokenChar) && !value.isEmpty { return "\(name)=\(value)" }
            var escaped = ""
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
                escaped.unicodeScalars.append(scalar)
            }
            return "\(name)=\"\(escaped)\""
        }
    }

    /// The value of `max-stale`.
    public enum MaxStale: Sendable, Hashable {
        /// `max-stale` without a value: any staleness is acceptable.
        case unlimited
        /// `max-stale=N`: staleness up to N seconds is acceptable.
        case seconds(Int)
        /// `max-stale` with a value that is not delta-seconds; treated as absent.
        case invalid(String)
    }

    /// A directive that may carry a list of field names (`no-cache`, `private`).
    public enum FieldQualifiedDirective: Sendable, Hashable {
        /// The directive does not occur.
        case absent
        /// The directive occurs without field names: it applies to the whole response.
        case unqualified
        /// The directive lists field names (lower-cased): it applies to those fields only.
        case fields([String])

        /// Whether the directive occurs in either form.
        public var isPresent: Bool { self != .absent }
    }

    /// Parses a Cache-Control field value (several field lines joined by commas).
    public init(_ value: String) {
        self.init(directives: FieldListScanner.parameterElements(value).map {
            Directive(name: $0.name, value: $0.value)
        })
    }

    /// Parses every `Cache-Control` field line of `fields`.
    public init(_ fields: HTTPFields) {
        // One line (the usual case) is parsed as it is, without building an array.
        switch fields.count(where: { $0.name == .cacheControl }) {
        case 0: self.init("")
        case 1: self.init(fields.firstValue(of: .cacheControl) ?? "")
        default: self.init(fields[values: .cacheControl].joined(separator: ","))
        }
    }

    /// An empty Cache-Control (no directives).
    public static let empty = CacheControl("")

    init(directives: [Directive]) {
        self.directives = directives
        var byName: [String: [String?]] = [:]
        for directive in directives { byName[directive.name, default: []].append(directive.value) }
        func delta(_ name: String) -> DeltaSeconds { DeltaSeconds.combine(byName[name] ?? []) }
        func flag(_ name: String) -> Bool { byName[name] != nil }
        func qualified(_ name: String) -> FieldQualifiedDirective {
            guard let occurrences = byName[name] else { return .absent }
            let names = occurrences.compactMap { $0 }.flatMap(FieldListScanner.members).map { $0.lowercased() }
            // An unqualified occurrence wins: it is the more restrictive reading (§4.2.1).
            return occurrences.contains(where: { $0 == nil }) || names.isEmpty ? .unqualified : .fields(names)
        }
        maxAge = delta("max-age")
        sharedMaxAge = delta("s-maxage")
        minFresh = delta("min-fresh")
        staleWhileRevalidate = delta("stale-while-revalidate")
        staleIfError = delta("stale-if-error")
        if let occurrences = byName["max-stale"] {
            if occurrences.contains(where: { $0 == nil }) {
                maxStale = .unlimited
            } else {
                switch DeltaSeconds.combine(occurrences) {
                case .seconds(let value): maxStale = .seconds(value)
                case .conflicting(let values):
                    // The most restrictive reading of several limits is the smallest one.
                    let valid = values.compactMap { DeltaSeconds.parse($0).value }
                    maxStale = valid.min().map(MaxStale.seconds) ?? .invalid(values.joined(separator: ","))
                case .invalid(let raw): maxStale = .invalid(raw)
                case .absent: maxStale = nil
                }
            }
        } else {
            maxStale = nil
        }
        noCache = qualified("no-cache")
        privateDirective = qualified("private")
        noStore = flag("no-store")
        noTransform = flag("no-transform")
        onlyIfCached = flag("only-if-cached")
        mustRevalidate = flag("must-revalidate")
        proxyRevalidate = flag("proxy-revalidate")
        mustUnderstand = flag("must-understand")
        isPublic = flag("public")
        immutable = flag("immutable")
        extensions = directives.filter { !Self.knownNames.contains($0.name) }
    }

    /// Every directive name defined by RFC 9111, RFC 5861 and RFC 8246.
    public static let knownNames: Set<String> = [
        "max-age", "s-maxage", "min-fresh", "max-stale", "stale-while-revalidate", "stale-if-error",
        "no-cache", "private", "no-store", "no-transform", "only-if-cached", "must-revalidate",
        "proxy-revalidate", "must-understand", "public", "immutable",
    ]
}

extension CacheControl: CustomStringConvertible {
    /// The directives as they would be written in a field value.
    public var description: String { directives.map(\.description).joined(separator: ", ") }
}
