public import Foundation
public import HTTPTypes

/// Whether a response may be stored, and if not, why.
public enum Storability: Sendable, Hashable {
    /// The response may be stored.
    case storable
    /// The response must not be stored.
    case notStorable(NotStorableReason)

    /// Whether the response may be stored.
    public var isStorable: Bool { self == .storable }
}

extension CacheRules {
    /// Decides whether `response` to `request` may be stored (RFC 9111 §3). `now` is the
    /// caller's clock when the response arrived; its dates are read against it.
    public func storability(request: HTTPRequest, response: HTTPResponse, now: Date) -> Storability {
        let method = request.method.rawValue
        guard method == "GET" else { return .notStorable(.methodNotCacheable(method)) }
        let status = response.status.code
        guard status >= 200 else { return .notStorable(.statusNotFinal(status)) }
        if status == 206 { return .notStorable(.partialContent) }
        if status == 304 { return .notStorable(.notModified) }
        let cc = CacheControl(response.headerFields)
        let understood = Self.understoodStatuses.contains(status)
        if cc.mustUnderstand, !understood { return .notStorable(.statusNotUnderstood(status)) }
        // §5.2.2.3: a cache that understands the status may ignore no-store beside must-understand.
        if cc.noStore, !(cc.mustUnderstand && understood) { return .notStorable(.responseNoStore) }
        let (requestCC, _) = requestDirectives(request)
        if requestCC.noStore { return .notStorable(.requestNoStore) }
        if isShared, cc.privateDirective == .unqualified { return .notStorable(.privateInSharedCache) }
        if isShared, request.headerFields.contains(.authorization),
            !(cc.isPublic || cc.sharedMaxAge.isPresent || cc.mustRevalidate)
        {
            return .notStorable(.authorizationInSharedCache)
        }
        if VaryKey.varyNames(response.headerFields).contains("*") { return .notStorable(.varyAsterisk) }
        let explicit = cc.isPublic || (!isShared && cc.privateDirective.isPresent)
            || response.headerFields.contains(.expires) || cc.maxAge.isPresent
            || (isShared && cc.sharedMaxAge.isPresent)
        guard explicit || Self.heuristicallyCacheableStatuses.contains(status) else {
            return .notStorable(.notCacheableStatus(status))
        }
        // A response that can never be reused (no lifetime, no validator, no stale allowance)
        // would only occupy space; URLCache on Linux even serves such entries forever.
        let probe = StoredResponse(
            key: CacheKey(method: "GET", uri: "http://probe/")!, response: response,
            requestTime: now, responseTime: now, varyKey: .none)
        let lifetime = freshnessLifetime(of: probe).seconds
        if lifetime <= 0, !probe.hasValidator, !cc.staleWhileRevalidate.isPresent, !cc.staleIfError.isPresent {
            return .notStorable(.noFreshnessNorValidator)
        }
        return .storable
    }

    /// Makes the value to store for a response: hop-by-hop fields removed (RFC 9111 §3.1),
    /// the `private="…"` fields removed in a shared cache, and the Vary secondary key recorded.
    public func storedResponse(
        key: CacheKey, request: HTTPRequest, response: HTTPResponse, requestTime: Date, responseTime: Date
    ) -> StoredResponse {
        var response = response
        response.headerFields = storableFields(response.headerFields)
        if !response.headerFields.contains(.date) {
            // §4.2.3 via RFC 9110 §6.6.1: a recipient with a clock adds Date when it is missing.
            response.headerFields[.date] = Self.receivedDate(responseTime)
        }
        return StoredResponse(
            key: key, response: response, requestTime: requestTime, responseTime: responseTime,
            varyKey: VaryKey(responseHeaders: response.headerFields, requestHeaders: request.headerFields))
    }

    /// The `Date` a recipient with a clock adds to a response (or a 304) that has none
    /// (RFC 9110 §6.6.1): the second of its arrival rounded up, since a `Date` holds whole
    /// seconds — rounded down, the response would be up to a second old as it arrived, and
    /// `max-age=1` stale at once.
    static func receivedDate(_ responseTime: Date) -> String {
        HTTPDate.format(Date(timeIntervalSince1970: responseTime.timeIntervalSince1970.rounded(.up)))
    }

    /// Removes the fields a cache must not store: Connection and the fields it names,
    /// Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade; and in a shared cache the
    /// fields named by a qualified `private`. (Not the proxy-specific fields of RFC 9111 §3.1:
    /// looking for them cost every stored response allocations; see docs/proxy.md.)
    func storableFields(_ fields: HTTPFields) -> HTTPFields {
        guard isShared, case .fields(let names) = CacheControl(fields).privateDirective else { return fields.removingHopByHop() }
        return fields.removingHopByHop(alsoRemoving: names)
    }
}
