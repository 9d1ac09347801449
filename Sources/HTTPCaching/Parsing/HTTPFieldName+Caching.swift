public import HTTPTypes

extension HTTPField.Name {
    // Stored, not computed: a name made from a string is validated and lower-cased, and the
    // rules ask for it on every request.

    /// `Pragma` (RFC 9111 §5.4), which swift-http-types does not predefine.
    public static let pragma = Self("Pragma")!
}
