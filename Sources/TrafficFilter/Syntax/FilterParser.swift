import CacheStore
import HTTPCaching
import HTTPTypes

/// Recursive descent over the filter grammar (`docs/filter.md`), one character at a time so
/// that every error knows its column:
///
/// ```text
/// filter      = disjunction ;
/// disjunction = conjunction , { "|" , conjunction } ;
/// conjunction = negation , { [ "&" ] , negation } ;
/// negation    = "!" , negation | primary ;
/// primary     = "(" , disjunction , ")" | predicate | text ;
/// ```
struct FilterParser {
    /// How deep `(` and `!` may nest: the parser and every walk over the compiled filter
    /// recurse once a level, and a filter pasted or sent to an attach socket must not be able
    /// to overflow the stack (2,500 levels did).
    static let maximumNesting = 100
    /// How many terms one filter may have: `a b c …` compiles to one level of `and` a term.
    static let maximumTerms = 1_000

    private let characters: [Character]
    private var index = 0
    private var nesting = 0
    private var terms = 0

    private init(_ text: String) {
        characters = Array(text)
    }

    /// The compiled form of `text`.
    static func parse(_ text: String) throws(FilterParseError) -> FilterNode {
        var parser = FilterParser(text)
        let node = try parser.disjunction()
        parser.skipSpaces()
        if parser.index < parser.characters.count {
            throw parser.unexpected("& or | and another term, or the end of the filter")
        }
        return node
    }

    static let termExpected = "a term: a field such as outcome:miss, plain text, ! or ("

    // MARK: Expressions

    private mutating func disjunction() throws(FilterParseError) -> FilterNode {
        var node = try conjunction()
        while true {
            skipSpaces()
            guard take("|") else { return node }
            _ = take("|")
            node = .or(node, try conjunction())
        }
    }

    private mutating func conjunction() throws(FilterParseError) -> FilterNode {
        var node = try negation()
        while true {
            skipSpaces()
            if take("&") {
                _ = take("&")
            } else if let next = peek, next != "|", next != ")" {
                // A space between two terms means "and".
            } else {
                return node
            }
            node = .and(node, try negation())
        }
    }

    private mutating func negation() throws(FilterParseError) -> FilterNode {
        skipSpaces()
        guard peek == "!" else { return try primary() }
        try enterLevel()
        index += 1
        let node = FilterNode.not(try negation())
        nesting -= 1
        return node
    }

    /// One more level of `(` or `!` at the current character, within ``maximumNesting``.
    private mutating func enterLevel() throws(FilterParseError) {
        nesting += 1
        if nesting > Self.maximumNesting {
            throw .unexpected(
                column: column, found: "level \(nesting)", expected: "at most \(Self.maximumNesting) levels of ( and ! inside each other")
        }
    }

    /// One more term starting at the current character, within ``maximumTerms``.
    private mutating func countTerm() throws(FilterParseError) {
        terms += 1
        if terms > Self.maximumTerms {
            throw .unexpected(column: column, found: "term \(terms)", expected: "at most \(Self.maximumTerms) terms in one filter")
        }
    }

    private mutating func primary() throws(FilterParseError) -> FilterNode {
        skipSpaces()
        guard let next = peek else { throw unexpected(Self.termExpected) }
        switch next {
        case "(":
            let open = column
            try enterLevel()
            index += 1
            let node = try disjunction()
            skipSpaces()
            guard take(")") else { throw unexpected("\")\" to close the \"(\" at column \(open)") }
            nesting -= 1
            return node
        case ")", "&", "|":
            throw unexpected(Self.termExpected)
        case "\"":
            try countTerm()
            return .text(.url, .contains(FoldedText(try quoted())))
        default:
            try countTerm()
            return try predicateOrText()
        }
    }

    // MARK: Predicates

    private mutating func predicateOrText() throws(FilterParseError) -> FilterNode {
        let start = index
        let name = word()
        if let field = FilterField.named(name) {
            return try predicate(field, name: name, column: start + 1)
        }
        if !name.isEmpty, let next = peek, FilterField.operatorCharacters.contains(next), !rest.hasPrefix("://") {
            throw .unknownField(column: start + 1, name: name)
        }
        index = start
        return .text(.url, .contains(FoldedText(unquotedValue())))
    }

    private mutating func predicate(_ field: FilterField, name: String, column: Int) throws(FilterParseError) -> FilterNode {
        switch field.kind {
        case .flag:
            if let next = peek, FilterField.operatorCharacters.contains(next) {
                throw .invalidOperator(column: self.column, field: name, found: String(next),
                                       expected: "nothing after \(name) (it stands alone: bg, !bg)")
            }
            return .background
        case .header:
            return try header(column: column)
        default:
            skipSpaces()
            let operatorColumn = self.column
            guard let op = comparisonOperator() else {
                throw unexpected("an operator after \(name) (\(field.operators))")
            }
            skipSpaces()
            let valueColumn = self.column
            let value = try value(after: "\(name)\(op)")
            return try Self.compile(field, name: name, op: op, operatorColumn: operatorColumn, value: value, column: valueColumn)
        }
    }

    /// `h:NAME`, then optionally `:TEXT`, `=TEXT` or `~REGEX`.
    private mutating func header(column: Int) throws(FilterParseError) -> FilterNode {
        guard take(":") else { throw unexpected("\":\" and a header field name after h (h:cache-control)") }
        let nameColumn = self.column
        let name = headerName()
        guard !name.isEmpty else { throw unexpected("a header field name after h: (h:cache-control)") }
        guard let fieldName = HTTPField.Name(name) else {
            throw .invalidValue(column: nameColumn, found: name, expected: "a header field name (h:cache-control)")
        }
        guard let next = peek, next == ":" || next == "=" || next == "~" else { return .header(fieldName, nil) }
        index += 1
        let valueColumn = self.column
        let value = try value(after: "h:\(name)\(next)")
        return .header(fieldName, try Self.textMatch(String(next), value: value, column: valueColumn))
    }

    private static func compile(
        _ field: FilterField, name: String, op: String, operatorColumn: Int, value: String, column: Int
    ) throws(FilterParseError) -> FilterNode {
        let equality = op == ":" || op == "="
        func refuse() -> FilterParseError {
            .invalidOperator(column: operatorColumn, field: name, found: op, expected: field.operators)
        }
        switch field.kind {
        case .outcome:
            guard equality else { throw refuse() }
            return .outcome(try word(value, column: column, what: "an outcome"))
        case .tier:
            guard equality else { throw refuse() }
            return .tier(try word(value, column: column, what: "a tier"))
        case .tag:
            guard equality else { throw refuse() }
            if let problem = SurrogateKeys.problem(with: value) {
                throw .invalidValue(column: column, found: value, expected: "a tag (\(problem))")
            }
            return .tag(value)
        case .text:
            guard equality || op == "~" else { throw refuse() }
            return .text(field, try textMatch(op, value: value, column: column))
        case .integer, .duration, .bytes:
            guard op != "~", let relation = Comparison.Relation(rawValue: op == ":" ? "=" : op) else { throw refuse() }
            let number: Double = switch field.kind {
            case .duration: try Quantity.parse(value, column: column, units: Quantity.durationUnits, what: "a duration")
            case .bytes: try Quantity.parse(value, column: column, units: Quantity.byteUnits, what: "a size")
            default: try Quantity.parse(value, column: column, units: Quantity.noUnits, what: "a status code")
            }
            return .number(field, Comparison(relation: relation, value: number))
        case .header, .flag:
            throw refuse()
        }
    }

    /// One of a word type's values, ignoring case; the error lists them all.
    private static func word<Word: CaseIterable & RawRepresentable<String>>(
        _ value: String, column: Int, what: String
    ) throws(FilterParseError) -> Word {
        guard let word = Word(rawValue: value.lowercased()) else {
            let words = Word.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(column: column, found: value, expected: "\(what) (\(words))")
        }
        return word
    }

    private static func textMatch(_ op: String, value: String, column: Int) throws(FilterParseError) -> TextMatch {
        switch op {
        case "~": try TextMatch.pattern(value, column: column)
        case "=": .equals(FoldedText(value))
        default: .contains(FoldedText(value))
        }
    }

    // MARK: Characters

    /// What ends an unquoted value: white space, the operators and parentheses, a quote.
    private static let valueStops: Set<Character> = ["&", "|", "(", ")", "\""]

    private var peek: Character? { index < characters.count ? characters[index] : nil }
    private var column: Int { index + 1 }
    private var rest: String { String(characters[index...]) }

    private func unexpected(_ expected: String) -> FilterParseError {
        let found = peek.map { "\"\($0)\"" } ?? "the end of the filter"
        return .unexpected(column: column, found: found, expected: expected)
    }

    private mutating func take(_ character: Character) -> Bool {
        guard peek == character else { return false }
        index += 1
        return true
    }

    private mutating func skipSpaces() {
        while let next = peek, next.isWhitespace { index += 1 }
    }

    /// Letters, digits, `-` and `_`: a field's name or the start of plain text.
    private mutating func word() -> String {
        let start = index
        while let next = peek, next.isASCII, next.isLetter || next.isNumber || next == "-" || next == "_" { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func headerName() -> String {
        let start = index
        while let next = peek, next.isASCII, next.isLetter || next.isNumber || next == "-" || next == "_" || next == "." {
            index += 1
        }
        return String(characters[start..<index])
    }

    private mutating func comparisonOperator() -> String? {
        guard let next = peek, FilterField.operatorCharacters.contains(next) else { return nil }
        index += 1
        if next == "<" || next == ">", take("=") { return "\(next)=" }
        return String(next)
    }

    /// A quoted or unquoted value; an empty one is an error.
    private mutating func value(after what: String) throws(FilterParseError) -> String {
        if peek == "\"" { return try quoted() }
        let value = unquotedValue()
        guard !value.isEmpty else { throw unexpected("a value after \(what)") }
        return value
    }

    private mutating func unquotedValue() -> String {
        let start = index
        while let next = peek, !next.isWhitespace, !Self.valueStops.contains(next) { index += 1 }
        return String(characters[start..<index])
    }

    /// `"…"`, where `\"` is a quote and `\\` a backslash (any other `\x` is kept as written,
    /// so regular expressions keep their escapes).
    private mutating func quoted() throws(FilterParseError) -> String {
        let open = column
        index += 1
        var text = ""
        while let next = peek {
            index += 1
            if next == "\"" { return text }
            if next == "\\", let escaped = peek, escaped == "\"" || escaped == "\\" {
                text.append(escaped)
                index += 1
            } else {
                text.append(next)
            }
        }
        throw .unterminatedQuote(column: open)
    }
}
