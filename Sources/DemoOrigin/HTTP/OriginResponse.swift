// MARK: - The response an endpoint produces

/// One response before framing: status, header fields, body and an optional delay.
///
/// `Date`, `Content-Length` and `Connection` are added when the response is written
/// (``OriginHTTPHandler``), so a delayed response is dated when it is actually sent.
struct OriginResponse: Sendable {
    /// The status code, e.g. 200.
    var status: Int
    /// Header fields other than `Date`, `Content-Length` and `Connection`.
    var headers: [(name: String, value: String)]
    /// The body bytes; empty for 204 and 304, and when ``generated`` makes the body.
    var body: [UInt8]
    /// A body made as it is sent (`/large`), instead of ``body``.
    var generated: GeneratedBody?
    /// How long to wait before sending, in milliseconds (only `/slow/{ms}` sets it).
    var delayMilliseconds: Int = 0

    /// A response whose body is `text` as UTF-8 with `Content-Type: text/plain; charset=utf-8`.
    init(status: Int, headers: [(name: String, value: String)] = [], text: String) {
        self.status = status
        self.headers = [("Content-Type", "text/plain; charset=utf-8")] + headers
        self.body = Array(text.utf8)
    }

    /// A response with raw bytes and an explicit content type.
    init(status: Int, headers: [(name: String, value: String)], contentType: String, body: [UInt8]) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// The first value of the field `name` (case-insensitive), or `nil`.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The 304 that stands for this response (RFC 9110 §15.4.5): no body, and only the fields a
    /// 200 would have carried that a cache needs to freshen its entry.
    func notModified() -> OriginResponse {
        let kept: Set<String> = ["etag", "cache-control", "vary", "expires", "last-modified", "content-location"]
        var copy = self
        copy.status = 304
        copy.headers = headers.filter { kept.contains($0.name.lowercased()) }
        copy.body = []
        copy.generated = nil
        return copy
    }
}
