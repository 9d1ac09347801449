import CacheStore
import HTTPCaching

/// Tab completion at the end of a filter being typed: a field name (`out` → `outcome:`), or
/// the value of a field whose values are words (`outcome:mi` → `outcome:miss`, `tier:d` →
/// `tier:disk`).
///
/// ```swift
/// FilterCompletion("status>=500 & out").completed     // "status>=500 & outcome:"
/// FilterCompletion("t").candidates                    // ["ttl", "tier", "tag"]
/// ```
public struct FilterCompletion: Sendable, Hashable {
    /// The text with the word at its end completed as far as it is unambiguous (unchanged
    /// when nothing fits).
    public let completed: String
    /// Everything that fits the word at the end, in table order (empty when nothing does).
    public let candidates: [String]

    /// Completes the word at the end of `text`.
    public init(_ text: String) {
        let word = Self.trailingWord(text)
        let stem = text.dropLast(word.count)
        let (prefix, options) = Self.options(for: word)
        let typed = word.dropFirst(prefix.count).lowercased()
        let fits = options.filter { $0.name.hasPrefix(typed) }
        candidates = fits.map(\.name)
        guard !fits.isEmpty else {
            completed = text
            return
        }
        if fits.count == 1, let only = fits.first {
            completed = stem + prefix + only.name + only.suffix
        } else {
            completed = stem + prefix + Self.commonPrefix(fits.map(\.name))
        }
    }

    /// The word being typed: everything after the last space, `(`, `!`, `&` or `|`.
    private static func trailingWord(_ text: String) -> Substring {
        let start = text.lastIndex { $0.isWhitespace || "(!&|".contains($0) }.map(text.index(after:)) ?? text.startIndex
        return text[start...]
    }

    /// What may follow `prefix` in `word`: field names, or the words a field's value can be.
    private static func options(for word: Substring) -> (prefix: String, options: [(name: String, suffix: String)]) {
        if let colon = word.firstIndex(where: { $0 == ":" || $0 == "=" }),
            let field = FilterField.named(String(word[..<colon])) {
            let prefix = String(word[...colon])
            switch field.kind {
            case .outcome: return (prefix, CacheOutcome.allCases.map { ($0.rawValue, " ") })
            case .tier: return (prefix, EntryTier.allCases.map { ($0.rawValue, " ") })
            default: return (prefix, [])
            }
        }
        if word.contains(where: { FilterField.operatorCharacters.contains($0) }) { return ("", []) }
        return ("", FilterField.allCases.map { field in
            (field.rawValue, field.kind == .flag ? " " : ":")
        })
    }

    private static func commonPrefix(_ names: [String]) -> String {
        guard var prefix = names.first else { return "" }
        for name in names.dropFirst() {
            while !name.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
