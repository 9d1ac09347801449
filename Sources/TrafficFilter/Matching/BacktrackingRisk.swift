import Foundation

/// Whether a regular expression can make ICU (a backtracking engine) try exponentially many,
/// or a high power of, the ways to split a text: a repeated group holding a repetition or an
/// alternation (`(a+)+`, `(.*)*X`, `(a|aa)*`), three or more unbounded repetitions (`.*.*.*X`),
/// or a back-reference — or one the scan cannot read with certainty (`\Q…\E` quoting,
/// `(?#…)` comments, free spacing). Only such patterns, and long texts, are matched under
/// ``CompiledRegex``'s step budget; the others run without its per-text cost.
///
/// ```swift
/// BacktrackingRisk.of("(a+)+$")        // true
/// BacktrackingRisk.of("item.[0-9]+9")  // false
/// ```
enum BacktrackingRisk {
    static func of(_ pattern: String) -> Bool {
        // Quoting, comments and free spacing change what the characters mean: read as risky
        // rather than misread (`(?#[)(\w+)+$` would hide its group from the scan below).
        if pattern.contains("\\Q") || pattern.contains("(?#") || pattern.range(of: #"\(\?[a-zA-Z-]*x"#, options: .regularExpression) != nil {
            return true
        }
        var groups: [Bool] = []  // per open group: whether it holds a repetition or an alternation
        var unbounded = 0
        var characters = Array(pattern.unicodeScalars)[...]
        var lastClosedGroupRisky = false  // the group just closed, which a quantifier may repeat
        while let character = characters.popFirst() {
            let repeatsRiskyGroup = lastClosedGroupRisky
            lastClosedGroupRisky = false
            switch character {
            case "\\":
                guard let escaped = characters.popFirst() else { break }
                if ("1"..."9").contains(escaped) || escaped == "k" { return true }  // a back-reference
            case "[":
                // A class the scan cannot close is one it misread (Swift's parser took the pattern).
                guard skipClass(&characters) else { return true }
            case "(":
                groups.append(false)
                if characters.first == "?" { characters.removeFirst() }  // `(?:`, `(?=`, `(?i)`: not a repetition
            case ")":
                guard let risky = groups.popLast() else { break }
                // What the group holds, its parent holds too.
                if risky, !groups.isEmpty { groups[groups.count - 1] = true }
                lastClosedGroupRisky = risky
            case "|":
                if !groups.isEmpty { groups[groups.count - 1] = true }
            case "*", "+", "?", "{":
                if character == "{" {
                    if String(String.UnicodeScalarView(characters.prefix { $0 != "}" })).hasSuffix(",") { unbounded += 1 }
                } else if character != "?" {
                    unbounded += 1
                }
                if repeatsRiskyGroup { return true }
                if !groups.isEmpty { groups[groups.count - 1] = true }
            default:
                break
            }
        }
        return unbounded >= 3
    }

    /// Skips a bracket expression (after its `[`), nested sets and escapes included; `false`
    /// when the pattern ends before it closes.
    private static func skipClass(_ characters: inout ArraySlice<Unicode.Scalar>) -> Bool {
        var depth = 1
        if characters.first == "^" { characters.removeFirst() }
        if characters.first == "]" { characters.removeFirst() }  // a leading `]` is literal
        while depth > 0, let character = characters.popFirst() {
            switch character {
            case "\\": _ = characters.popFirst()
            case "[": depth += 1
            case "]": depth -= 1
            default: break
            }
        }
        return depth == 0
    }
}
