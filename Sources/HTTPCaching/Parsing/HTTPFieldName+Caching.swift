public import HTTPTypes

extension HTTPField.Name {
    /// `Pragma` (RFC 9111 §5.4), which swift-http-types does not predefine.
    public static var pragma: Self { Self("Pragma")! }
    /// `Keep-Alive`, a hop-by-hop field never stored (RFC 9111 §3.1).
    static var keepAlive: Self { Self("Keep-Alive")! }
    /// `Proxy-Connection`, a hop-by-hop field never stored.
    static var proxyConnection: Self { Self("Proxy-Connection")! }
}
