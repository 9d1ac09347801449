/// A compiled filter expression over requests and stored entries — the one language of the
/// dashboard's filter (`f`), its search (`/`), purge selection, and `--filter` on the command
/// line. The grammar and examples are in `docs/filter.md`.
///
/// ```swift
/// let filter = try Filter("outcome:miss & !bg | status>=500")
/// let misses = records.filter { filter.matches($0) }    // any FilterSubject
/// ```
///
/// Predicates: `outcome:miss`, `reason:"no-store"`, `status>=500`, `method:POST`,
/// `url~REGEX` (plain text alone is a URL substring), `host:…`, `ttl<30s`, `age>5m`,
/// `size>1MB`, `tier:disk`, `tag:product-42`, `h:cache-control~no-cache`, `bg`; joined by `!`, `&` (or just a
/// space) and `|`, in that order of precedence, with parentheses. Text compares ignoring case;
/// a regular expression is compiled once, here.
///
/// Two filters are equal when their texts are.
public struct Filter: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    private let root: FilterNode

    /// Parses and compiles `text`.
    /// - Throws: ``FilterParseError`` with the column and what was expected there. A blank
    ///   text is an error too (there is nothing to match): treat it as "no filter" before.
    public init(_ text: String) throws(FilterParseError) {
        self.text = text
        root = try FilterParser.parse(text)
    }

    /// Whether `subject` matches.
    public func matches(_ subject: some FilterSubject) -> Bool {
        root.matches(subject)
    }

    /// The text searched for when the whole filter is one URL substring (`items`, `url:items`),
    /// which a view can highlight; `nil` otherwise.
    public var plainText: String? {
        guard case .text(.url, .contains(let needle)) = root else { return nil }
        return needle.text
    }

    /// The tag when the whole filter is one `tag:NAME` predicate — what a purge by tag
    /// removes exactly; `nil` otherwise.
    public var onlyTag: String? {
        guard case .tag(let tag) = root else { return nil }
        return tag
    }

    /// Whether a `~` pattern in it took too long on some text and was given up: that text and
    /// the ones after it count as not matching the pattern (so `!` takes them). Parsing refuses
    /// the patterns known to do this, so it is rare; whoever shows the filter's results should
    /// say so when it happens, and a purge by it should remove nothing it had not decided.
    public var gaveUp: Bool { root.gaveUp }

    /// What to say when ``gaveUp``.
    public var gaveUpMessage: String {
        "the filter's pattern took too long (\(CompiledRegex.budgetText)) on one text and was given up: "
            + "texts it had not decided count as not matching it; simplify the pattern"
    }

    /// The expression as written.
    public var description: String { text }

    /// Whether the two texts are equal.
    public static func == (lhs: Filter, rhs: Filter) -> Bool { lhs.text == rhs.text }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
