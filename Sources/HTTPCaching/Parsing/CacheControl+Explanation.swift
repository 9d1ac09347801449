extension CacheControl {
    /// Each directive explained in plain words, for the dashboard's detail pane and `get`.
    ///
    /// ```swift
    /// CacheControl("max-age=60, must-revalidate").explanations
    /// // ["max-age=60: fresh for 1m after it was generated (in a request: accept nothing older)",
    /// //  "must-revalidate: once stale, never served without asking the origin"]
    /// ```
    public var explanations: [String] {
        directives.map { directive in "\(directive): " + Self.explain(directive) }
    }

    static func explain(_ directive: Directive) -> String {
        let value = directive.value
        let delta = DeltaSeconds.parse(value)
        let duration = delta.value.map(humanDuration) ?? "an invalid time (treated as stale)"
        switch directive.name {
        case "max-age": return "fresh for \(duration) after it was generated (in a request: accept nothing older)"
        case "s-maxage": return "shared caches: fresh for \(duration); overrides max-age and Expires there"
        case "min-fresh": return "the client wants at least \(duration) of freshness left"
        case "max-stale":
            return value == nil ? "the client accepts a stale response, however stale" : "the client accepts up to \(duration) of staleness"
        case "stale-while-revalidate": return "may be served up to \(duration) stale while it is refreshed in the background"
        case "stale-if-error": return "may be served up to \(duration) stale when the origin fails"
        case "no-cache":
            return value == nil
                ? "may be stored, but must be revalidated with the origin before every use"
                : "the listed fields (\(value!)) must not be reused without revalidation"
        case "no-store": return "must not be stored at all"
        case "private":
            return value == nil ? "for one user only: shared caches must not store it" : "shared caches must not store the fields \(value!)"
        case "public": return "any cache may store it, even where it normally would not"
        case "must-revalidate": return "once stale, never served without asking the origin"
        case "proxy-revalidate": return "like must-revalidate, for shared caches only"
        case "must-understand": return "store only if the cache understands the status code"
        case "no-transform": return "intermediaries must not change the content"
        case "only-if-cached": return "the client wants a stored response only; no network (504 otherwise)"
        case "immutable": return "will not change while fresh: no revalidation on reload"
        default: return "an extension this cache does not act on"
        }
    }

    /// `90` → `1m30s`, `86400` → `1d`.
    public static func humanDuration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        let units: [(Int, String)] = [(86_400, "d"), (3600, "h"), (60, "m"), (1, "s")]
        var rest = seconds
        var parts: [String] = []
        for (size, name) in units where rest >= size && parts.count < 2 {
            parts.append("\(rest / size)\(name)")
            rest %= size
        }
        return parts.joined()
    }
}
