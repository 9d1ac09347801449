public import HTTPTypes

extension HTTPResponse.Status {
    /// Whether a response with this status may have content (RFC 9110 §6.4.1): never a 1xx,
    /// 204 or 304, whatever its `Content-Length` or `Transfer-Encoding` say (those then describe
    /// the content the request would have had).
    public var mayHaveContent: Bool {
        !(100..<200).contains(code) && code != 204 && code != 304
    }
}
