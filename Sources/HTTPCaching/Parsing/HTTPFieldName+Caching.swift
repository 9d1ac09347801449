public import HTTPTypes

extension HTTPField.Name {
    // Stored, not computed: a name made from a string is validated and lower-cased, and the
    // rules ask for `Pragma` on every request.

    /// `Pragma` (RFC 9111 §5.4), which swift-http-types does not predefine.
    public static let pragma = Self("Pragma")!
    /// `Keep-Alive`, a hop-by-hop field never stored (RFC 9111 §3.1).
    static let keepAlive = Self("Keep-Alive")!
    /// `Proxy-Connection`, a hop-by-hop field never stored.
    static let proxyConnection = Self("Proxy-Connection")!
}
