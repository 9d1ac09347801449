/// Why a filter expression could not be read: where (a 1-based column, counted in characters)
/// and what the grammar expected there, in words a user can act on.
///
/// ```swift
/// do {
///     _ = try Filter("outcome:great")
/// } catch {
///     print(error)   // column 9: expected an outcome (hit, stale, revalidated, modified, miss, bypass, error), found "great"
/// }
/// ```
public enum FilterParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Something the grammar does not allow here (`found` is the text there, or `end of the filter`).
    case unexpected(column: Int, found: String, expected: String)
    /// A name before an operator that names no field (`outcom:miss`).
    case unknownField(column: Int, name: String)
    /// An operator the field does not take (`outcome>miss`).
    case invalidOperator(column: Int, field: String, found: String, expected: String)
    /// A value the field cannot take (`outcome:great`, `ttl<5x`).
    case invalidValue(column: Int, found: String, expected: String)
    /// A quoted text whose closing `"` is missing; the column is the opening quote's.
    case unterminatedQuote(column: Int)
    /// A regular expression (after `~`) that does not compile.
    case invalidRegex(column: Int, pattern: String, problem: String)

    /// The 1-based column (in characters) where the problem starts.
    public var column: Int {
        switch self {
        case .unexpected(let column, _, _), .unknownField(let column, _), .invalidOperator(let column, _, _, _),
            .invalidValue(let column, _, _), .unterminatedQuote(let column), .invalidRegex(let column, _, _):
            column
        }
    }

    /// What the grammar expected at ``column``.
    public var expected: String {
        switch self {
        case .unexpected(_, _, let expected), .invalidOperator(_, _, _, let expected), .invalidValue(_, _, let expected):
            expected
        case .unknownField:
            "a field (\(FilterField.summary)) or \"quoted text\""
        case .unterminatedQuote:
            "a closing \" for the text that starts here"
        case .invalidRegex(_, _, let problem):
            "a regular expression (\(problem))"
        }
    }

    /// What was found instead, quoted, or `nil` when the expectation says it all.
    public var found: String? {
        switch self {
        case .unexpected(_, let found, _): found
        case .unknownField(_, let name): "\"\(name)\""
        case .invalidOperator(_, let field, let found, _): "\"\(found)\" after \(field)"
        case .invalidValue(_, let found, _): "\"\(found)\""
        case .unterminatedQuote: nil
        case .invalidRegex(_, let pattern, _): "\"\(pattern)\""
        }
    }

    /// The same error `columns` further right: for an expression that follows other text on
    /// a line (`purge outcome:miss`).
    public func shifted(by columns: Int) -> FilterParseError {
        switch self {
        case .unexpected(let column, let found, let expected): .unexpected(column: column + columns, found: found, expected: expected)
        case .unknownField(let column, let name): .unknownField(column: column + columns, name: name)
        case .invalidOperator(let column, let field, let found, let expected):
            .invalidOperator(column: column + columns, field: field, found: found, expected: expected)
        case .invalidValue(let column, let found, let expected): .invalidValue(column: column + columns, found: found, expected: expected)
        case .unterminatedQuote(let column): .unterminatedQuote(column: column + columns)
        case .invalidRegex(let column, let pattern, let problem): .invalidRegex(column: column + columns, pattern: pattern, problem: problem)
        }
    }

    /// One line: `column 9: expected …, found "…"`.
    public var description: String {
        "column \(column): expected \(expected)" + (found.map { ", found \($0)" } ?? "")
    }
}
