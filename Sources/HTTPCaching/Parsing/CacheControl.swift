public import HTTPTypes

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
        self.init(directives: FieldListScanner.parameterElements(value).map { element in
            // A malformed `no-cache="…"` or `private="…"` counts unqualified: for the whole
            // response, the cautious reading; a malformed number is no number.
            let qualified = element.name == "no-cache" || element.name == "private"
            return Directive(name: element.name, value: element.isMalformed && qualified ? nil : element.value)
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
        // One pass, sorting each directive by name. This runs for every stored response a
        // 304 freshens, so it avoids hashing names into a dictionary and looking each
        // known directive up again.
        var seen = Occurrences()
        var extensions: [Directive] = []
        for directive in directives {
            let value = directive.value
            switch directive.name {
            case "max-age": seen.maxAge.append(value)
            case "s-maxage": seen.sharedMaxAge.append(value)
            case "min-fresh": seen.minFresh.append(value)
            case "max-stale": seen.maxStale.append(value)
            case "stale-while-revalidate": seen.staleWhileRevalidate.append(value)
            case "stale-if-error": seen.staleIfError.append(value)
            case "no-cache": seen.noCache.append(value)
            case "private": seen.privateDirective.append(value)
            case "no-store": seen.noStore = true
            case "no-transform": seen.noTransform = true
            case "only-if-cached": seen.onlyIfCached = true
            case "must-revalidate": seen.mustRevalidate = true
            case "proxy-revalidate": seen.proxyRevalidate = true
            case "must-understand": seen.mustUnderstand = true
            case "public": seen.isPublic = true
            case "immutable": seen.immutable = true
            default: extensions.append(directive)
            }
        }
        maxAge = DeltaSeconds.combine(seen.maxAge)
        sharedMaxAge = DeltaSeconds.combine(seen.sharedMaxAge)
        minFresh = DeltaSeconds.combine(seen.minFresh)
        staleWhileRevalidate = DeltaSeconds.combine(seen.staleWhileRevalidate)
        staleIfError = DeltaSeconds.combine(seen.staleIfError)
        maxStale = Self.maxStale(seen.maxStale)
        noCache = Self.qualified(seen.noCache)
        privateDirective = Self.qualified(seen.privateDirective)
        noStore = seen.noStore
        noTransform = seen.noTransform
        onlyIfCached = seen.onlyIfCached
        mustRevalidate = seen.mustRevalidate
        proxyRevalidate = seen.proxyRevalidate
        mustUnderstand = seen.mustUnderstand
        isPublic = seen.isPublic
        immutable = seen.immutable
        self.extensions = extensions
    }

    /// The arguments of each known directive, in field order (`nil` for one written without).
    private struct Occurrences {
        var maxAge: [String?] = []
        var sharedMaxAge: [String?] = []
        var minFresh: [String?] = []
        var maxStale: [String?] = []
        var staleWhileRevalidate: [String?] = []
        var staleIfError: [String?] = []
        var noCache: [String?] = []
        var privateDirective: [String?] = []
        var noStore = false
        var noTransform = false
        var onlyIfCached = false
        var mustRevalidate = false
        var proxyRevalidate = false
        var mustUnderstand = false
        var isPublic = false
        var immutable = false
    }

    /// `max-stale`: absent, without a value (any staleness), or the smallest valid limit.
    private static func maxStale(_ occurrences: [String?]) -> MaxStale? {
        guard !occurrences.isEmpty else { return nil }
        if occurrences.contains(where: { $0 == nil }) { return .unlimited }
        switch DeltaSeconds.combine(occurrences) {
        case .seconds(let value): return .seconds(value)
        case .conflicting(let values):
            // The most restrictive reading of several limits is the smallest one.
            let valid = values.compactMap { DeltaSeconds.parse($0).value }
            return valid.min().map(MaxStale.seconds) ?? .invalid(values.joined(separator: ","))
        case .invalid(let raw): return .invalid(raw)
        case .absent: return nil
        }
    }

    /// `no-cache` / `private`: absent, unqualified, or the lower-cased field names listed.
    private static func qualified(_ occurrences: [String?]) -> FieldQualifiedDirective {
        guard !occurrences.isEmpty else { return .absent }
        let names = occurrences.compactMap { $0 }.flatMap(FieldListScanner.members).map { $0.lowercased() }
        // An unqualified occurrence wins: it is the more restrictive reading (§4.2.1).
        return occurrences.contains(where: { $0 == nil }) || names.isEmpty ? .unqualified : .fields(names)
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
