// MARK: - The endpoint list as text

extension EndpointKind {
    /// Every endpoint as one line `pattern  summary`, patterns padded to one column, each line
    /// starting with `indent` and ending with a newline. Printed by `cachescope origin`.
    ///
    /// ```text
    ///   /max-age/{N}          Cache-Control: max-age=N, strong ETag, Last-Modified
    ///   /s-maxage/{N}         public, max-age=1, s-maxage=N (shared caches keep it longer), ETag
    /// ```
    public static func listing(indent: String = "  ") -> String {
        let width = allCases.map(\.pattern.count).max() ?? 0
        return allCases.map { kind in
            let padding = String(repeating: " ", count: width - kind.pattern.count + 2)
            return indent + kind.pattern + padding + kind.summary + "\n"
        }.joined()
    }
}
