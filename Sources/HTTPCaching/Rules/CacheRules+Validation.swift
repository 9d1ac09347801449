public import Foundation
public import HTTPTypes

extension CacheRules {
    /// The validators for a conditional request (RFC 9111 §4.3.1): `If-None-Match` with the
    /// entity tags of every stored response under the key (the selected one first), and
    /// `If-Modified-Since` with the selected response's `Last-Modified` when it alone is
    /// being validated.
    ///
    /// The field values are those written when the responses were stored
    /// (``StoredResponse/ifNoneMatchValue``); several tags are joined here.
    public func conditionalHeaders(validating index: Int, among candidates: [StoredResponse]) -> ConditionalHeaders {
        var tags: [EntityTag] = []
        var ifNoneMatch: String?
        func add(_ candidate: StoredResponse) {
            guard let tag = candidate.entityTag, let value = candidate.ifNoneMatchValue, !tags.contains(tag) else { return }
            tags.append(tag)
            ifNoneMatch = ifNoneMatch.map { $0 + ", " + value } ?? value
        }
        add(candidates[index])
        for (other, candidate) in candidates.enumerated() where other != index { add(candidate) }
        let single = tags.count <= 1
        return ConditionalHeaders(
            ifNoneMatch: tags, ifModifiedSince: single ? candidates[index].lastModified : nil,
            ifNoneMatchValue: ifNoneMatch, ifModifiedSinceValue: single ? candidates[index].ifModifiedSinceValue : nil)
    }

    /// Which stored responses a 304 freshens (RFC 9111 §4.3.4).
    ///
    /// - A strong ETag in the 304 selects every stored response with that strong tag.
    /// - Otherwise a weak ETag, or a `Last-Modified`, selects the most recent matching one.
    /// - A 304 without validators selects `validated` — the response whose validators alone were
    ///   sent (RFC 9111 requires that response to lack validators too; CacheScope accepts it
    ///   when only one response was validated, because the origin can only have meant that one).
    ///
    /// `now` is the caller's clock when the 304 arrived; its `Last-Modified` is read against it.
    public func responsesToFreshen(
        notModified: HTTPResponse, candidates: [StoredResponse], validated: Int?, now: Date
    ) -> [Int] {
        let fields = notModified.headerFields
        if let tag = fields.value(of: .eTag).flatMap({ EntityTag(parsing: $0) }) {
            if !tag.isWeak {
                return candidates.indices.filter { candidates[$0].entityTag.map(tag.matchesStrongly) ?? false }
            }
            return mostRecent(candidates.indices.filter { candidates[$0].entityTag.map(tag.matchesWeakly) ?? false }, candidates)
        }
        if let lastModified = fields.value(of: .lastModified).flatMap({ HTTPDate.parse($0, reference: now) }) {
            return mostRecent(candidates.indices.filter { candidates[$0].lastModified == lastModified }, candidates)
        }
        if let validated, candidates.indices.contains(validated) { return [validated] }
        if candidates.count == 1, !candidates[0].hasValidator { return [0] }
        return []
    }

    /// The stored response updated with a 304's header fields (RFC 9111 §3.2, §4.3.4): each
    /// field of the 304 replaces the stored ones of that name, except hop-by-hop fields and
    /// `Content-Length`; request and response times become the revalidation's. A stored `Age`
    /// is dropped unless the 304 sends one: it measured the time since the *previous*
    /// validation (§5.1), and counting it again would age the freshened response twice.
    public func freshen(
        _ stored: StoredResponse, with notModified: HTTPResponse, requestTime: Date, responseTime: Date
    ) -> StoredResponse {
        let update = storableFields(notModified.headerFields).filter { $0.name != .contentLength }
        // The 304's few field names, searched in order (cheaper than hashing them).
        let updated = update.map(\.name.canonicalName)
        let keepsAge = updated.contains(HTTPField.Name.age.canonicalName)
        let addsDate = !updated.contains(HTTPField.Name.date.canonicalName)
        // Built in one pass into reserved space (setting fields by name, `fields[name] = …`,
        // searches and shifts the list each time). Order: the stored fields the 304 does not
        // replace (a new Date in the place of the stored one), then the 304's in its order.
        var merged = HTTPFields()
        merged.reserveCapacity(stored.response.headerFields.count + update.count + 1)
        // The Date a recipient with a clock writes when the 304 sends none (RFC 9110 §6.6.1).
        var newDate = addsDate ? HTTPField(name: .date, value: Self.receivedDate(responseTime)) : nil
        for field in stored.response.headerFields where !updated.contains(field.name.canonicalName) {
            if field.name == .age, !keepsAge { continue }
            if field.name == .date, addsDate {
                if let date = newDate.take() { merged.append(date) }
                continue
            }
            merged.append(field)
        }
        merged.append(contentsOf: update)
        if let date = newDate { merged.append(date) }
        return stored.replacing(headerFields: merged, requestTime: requestTime, responseTime: responseTime)
    }

    private func mostRecent(_ indices: [Int], _ candidates: [StoredResponse]) -> [Int] {
        guard let best = indices.max(by: { candidates[$0].responseTime < candidates[$1].responseTime }) else { return [] }
        return [best]
    }
}
