import Foundation
import TerminalUI

/// Splitting text into spans that mark where a search query matches.
enum SearchHighlight {
    /// `text` in `role`, with every case-insensitive occurrence of `query` in `search-match`.
    static func spans(_ text: String, query: String, role: ThemeRole) -> [Span] {
        guard !query.isEmpty else { return [Span(text, role)] }
        var result: [Span] = []
        var rest = text[...]
        while let range = rest.range(of: query, options: .caseInsensitive) {
            if range.lowerBound > rest.startIndex { result.append(Span(String(rest[..<range.lowerBound]), role)) }
            result.append(Span(String(rest[range]), .searchMatch))
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { result.append(Span(String(rest), role)) }
        return result
    }

    /// Whether `text` contains `query`, ignoring case.
    static func matches(_ text: String, query: String) -> Bool {
        !query.isEmpty && text.range(of: query, options: .caseInsensitive) != nil
    }
}
