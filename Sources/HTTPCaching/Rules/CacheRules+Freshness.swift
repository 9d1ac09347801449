public import Foundation

extension CacheRules {
    /// The freshness lifetime and where it comes from (RFC 9111 §4.2.1, §4.2.2), raised to the
    /// configured ``CacheRulesConfiguration/minimumFreshness`` when that is longer.
    public func freshnessLifetime(of stored: StoredResponse) -> (seconds: Double, source: FreshnessSource) {
        let (seconds, source) = protocolLifetime(of: stored)
        let minimum = configuration.minimumFreshness
        return minimum > seconds ? (minimum, .minimum(minimum, over: source)) : (seconds, source)
    }

    /// The lifetime RFC 9111 gives the response, before any configured minimum.
    private func protocolLifetime(of stored: StoredResponse) -> (seconds: Double, source: FreshnessSource) {
        let cc = stored.cacheControl
        if isShared {
            switch cc.sharedMaxAge {
            case .seconds(let value): return (Double(value), .sharedMaxAge(value))
            case .invalid, .conflicting: return (0, .invalid("s-maxage \(cc.sharedMaxAge)"))
            case .absent: break
            }
        }
        switch cc.maxAge {
        case .seconds(let value): return (Double(value), .maxAge(value))
        case .invalid, .conflicting: return (0, .invalid("max-age \(cc.maxAge)"))
        case .absent: break
        }
        let dateValue = stored.date ?? stored.responseTime
        switch stored.expires {
        case .date(let expires):
            let lifetime = max(0, expires.timeIntervalSince(dateValue))
            return (lifetime, .expires(lifetime))
        case .invalid(let raw):
            return (0, .invalid("invalid Expires \"\(raw)\""))
        case .absent:
            break
        }
        if let heuristic = heuristicLifetime(of: stored, dateValue: dateValue) {
            return (heuristic, .heuristic(heuristic))
        }
        return (0, .none)
    }

    /// The current age in seconds at `now` (RFC 9111 §4.2.3).
    public func currentAge(of stored: StoredResponse, now: Date) -> Double {
        let dateValue = stored.date ?? stored.responseTime
        let apparentAge = max(0, stored.responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, stored.responseTime.timeIntervalSince(stored.requestTime))
        let correctedAgeValue = Double(stored.ageHeader ?? 0) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(stored.responseTime))
        return correctedInitialAge + residentTime
    }

    /// Lifetime and age of a stored response at `now`.
    public func freshness(of stored: StoredResponse, now: Date) -> Freshness {
        let (lifetime, source) = freshnessLifetime(of: stored)
        return Freshness(lifetime: lifetime, age: currentAge(of: stored, now: now), source: source)
    }

    /// The heuristic lifetime, when allowed: a fraction of `Date − Last-Modified`, capped.
    func heuristicLifetime(of stored: StoredResponse, dateValue: Date) -> Double? {
        guard configuration.heuristicFreshness,
            Self.heuristicallyCacheableStatuses.contains(stored.status) || stored.cacheControl.isPublic,
            let lastModified = stored.lastModified
        else { return nil }
        let sinceModified = dateValue.timeIntervalSince(lastModified)
        guard sinceModified > 0 else { return nil }
        return min(sinceModified * configuration.heuristicFraction, configuration.heuristicLimit)
    }

    /// Whether serving the response stale is forbidden by the response (RFC 9111 §4.2.4):
    /// `must-revalidate`, unqualified `no-cache` (or `Pragma: no-cache` standing in for it;
    /// neither when ``CacheRulesConfiguration/ignoresResponseNoCache``),
    /// or in a shared cache `proxy-revalidate` or `s-maxage`.
    func forbidsServingStale(_ stored: StoredResponse) -> Bool {
        let cc = stored.cacheControl
        if cc.mustRevalidate { return true }
        if !configuration.ignoresResponseNoCache, cc.noCache == .unqualified || stored.pragmaNoCache { return true }
        return isShared && (cc.proxyRevalidate || cc.sharedMaxAge.isPresent)
    }
}
