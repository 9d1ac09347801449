public import HTTPTypes

extension HTTPField {
    /// A header field as a session log or HAR capture recorded it; `nil` when `recordedName`
    /// is not a valid field name (RFC 9110 §5.1 token) or is an HTTP/2 pseudo-header
    /// (`:authority`), which a reader leaves out rather than failing the whole event. Invalid
    /// bytes in the value are replaced as `HTTPField` does.
    public init?(recordedName: String, value: String) {
        guard !recordedName.hasPrefix(":"), let name = HTTPField.Name(recordedName) else { return nil }
        self.init(name: name, value: value)
    }
}
