/// A `~` pattern compiled once, when the filter is parsed, and matched ignoring case anywhere
/// in the text (anchor it with `^` and `$`).
struct CompiledRegex: @unchecked Sendable {
    // @unchecked: `Regex<AnyRegexOutput>` is an immutable value (compiled once, never
    // changed), and matching reads it without shared mutable state.
    private let regex: Regex<AnyRegexOutput>

    /// The characters that make a `~` value a regular expression rather than plain text.
    static let metacharacters: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]

    init(_ pattern: String, column: Int) throws(FilterParseError) {
        do {
            regex = try Regex(pattern).ignoresCase()
        } catch {
            let problem = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "not a pattern"
            throw .invalidRegex(column: column, pattern: pattern, problem: problem)
        }
    }

    func matches(_ text: Substring) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }
}
