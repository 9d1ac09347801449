// MARK: - Conditional GET evaluation (RFC 9110 §13.2.2)

/// Decides whether a conditional GET or HEAD can be answered 304 Not Modified.
enum ConditionalRequest {
    /// `true` when `request`'s preconditions say the client's copy of `response` is current.
    ///
    /// Follows RFC 9110 §13.2.2: only GET/HEAD answered 200 qualify. `If-None-Match` is
    /// evaluated first with weak comparison (a list, or `*` for any current representation);
    /// only when it is absent is `If-Modified-Since` compared with `Last-Modified`. An
    /// `If-Modified-Since` that is not one valid HTTP date is ignored.
    static func isNotModified(_ request: OriginRequest, response: OriginResponse) -> Bool {
        guard request.isGetOrHead, response.status == 200 else { return false }

        if let ifNoneMatch = request.header("If-None-Match") {
            if ifNoneMatch.trimmingASCIIWhitespace() == "*" { return true }
            guard let etag = response.header("ETag") else { return false }
            return EntityTag.ifNoneMatch(ifNoneMatch, matches: etag)
        }

        guard request.headerCount("If-Modified-Since") == 1,
            let since = request.header("If-Modified-Since").flatMap(HTTPDateFormatting.parse),
            let lastModified = response.header("Last-Modified").flatMap(HTTPDateFormatting.parse)
        else { return false }
        return lastModified <= since
    }
}
