/// RFC 9110 §5.6.2's `token`: what a method, a field name or a directive name is made of.
public enum HTTPToken {
    /// Whether `text` is a token: one or more of letters, digits and ``!#$%&'*+-.^_`|~``.
    ///
    /// ```swift
    /// HTTPToken.isToken("M-SEARCH")   // true
    /// HTTPToken.isToken("GET /")      // false
    /// ```
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(FieldListScanner.isTokenChar)
    }
}
