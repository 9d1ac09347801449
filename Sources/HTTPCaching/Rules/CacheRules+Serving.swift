public import Foundation
public import HTTPTypes

extension CacheRules {
    /// The request to send to the origin for a decision: conditional headers for
    /// ``CacheDecision/revalidate(_:)``, `Cache-Control: no-cache` and `Pragma: no-cache` for
    /// `reloadIgnoringLocalAndRemoteCacheData`; otherwise the request unchanged. The method is
    /// never changed: a HEAD request is sent as HEAD (its answer is not stored, see
    /// ``storability(request:response:now:)``).
    public func networkRequest(for request: HTTPRequest, decision: CacheDecision, policy: CachePolicy) -> HTTPRequest {
        var outgoing = request
        if policy == .reloadIgnoringLocalAndRemoteCacheData {
            outgoing.headerFields[.cacheControl] = "no-cache"
            outgoing.headerFields[.pragma] = "no-cache"
        }
        if case .revalidate(let revalidation) = decision {
            revalidation.conditionalHeaders.apply(to: &outgoing.headerFields)
        }
        return outgoing
    }

    /// The header fields to serve a stored response with: `Age` set to the current age
    /// (RFC 9111 §5.1) and, when served without revalidation, the fields named by a
    /// qualified `no-cache` removed (§5.2.2.4).
    ///
    /// Served from the cache, the same response gets the same fields until its age reaches
    /// the next whole second: those are built once and shared.
    public func servedHeaderFields(for stored: StoredResponse, age: Double, revalidated: Bool) -> HTTPFields {
        let seconds = Int(min(age, Double(DeltaSeconds.maximum)).rounded(.down))
        guard !revalidated else { return Self.headerFields(of: stored, age: seconds, revalidated: true) }
        return stored.servedFields(age: seconds) { Self.headerFields(of: stored, age: seconds, revalidated: false) }
    }

    private static func headerFields(of stored: StoredResponse, age: Int, revalidated: Bool) -> HTTPFields {
        var fields = stored.response.headerFields
        fields[.age] = String(age)
        if !revalidated, case .fields(let names) = stored.cacheControl.noCache {
            for name in names {
                if let fieldName = HTTPField.Name(name) { fields[fieldName] = nil }
            }
        }
        return fields
    }

    /// Whether a stale response may be served because the origin failed (RFC 5861 §4):
    /// the request's or else the response's `stale-if-error` must cover the staleness, and
    /// nothing may forbid serving stale. `failure` describes the error for the reason.
    public func staleIfError(
        stored: StoredResponse, candidate: Int, request: HTTPRequest, failure: String, now: Date
    ) -> StaleHit? {
        let freshness = freshness(of: stored, now: now)
        guard !forbidsServingStale(stored) else { return nil }
        let (requestCC, _) = requestDirectives(request)
        let window = requestCC.staleIfError.value ?? stored.cacheControl.staleIfError.value
        guard let window, freshness.staleness <= Double(window) else { return nil }
        return StaleHit(candidate: candidate, freshness: freshness, reason: .staleIfError(window: window, failure: failure))
    }
}
