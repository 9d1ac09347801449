/// Text that every match of a `~` pattern must contain, found once when the pattern is
/// compiled: the longest run of plain ASCII characters that the pattern requires, such as
/// `item` in `item.[0-9]+9` or `.js` in `\.js$`.
///
/// A text without it cannot match, so it is ruled out by a byte search instead of a run of the
/// regex engine — the first frame after a filter change matches every one of 10,000 rows, and
/// most rows of a selective filter lack its text.
///
/// The reading is conservative: a pattern with `|`, `(?…)`, `\Q` or nested character classes
/// gets no required text; a character followed by `?`, `*` or `{…}` is optional and not part
/// of it. Only ASCII texts are ruled out: matched ignoring case, an ASCII `k` also matches the
/// Kelvin sign, so a text with other characters always goes to the regex engine.
struct RequiredText: Sendable {
    /// The text, compared ignoring case.
    let needle: FoldedText

    /// The required text of `pattern`, or `nil` when the pattern requires none that can be
    /// read off safely.
    init?(pattern: String) {
        guard let longest = Self.longestRun(in: Array(pattern.unicodeScalars)), !longest.isEmpty else { return nil }
        needle = FoldedText(longest)
    }

    /// Whether `text` certainly does not match: it is ASCII and lacks the required text.
    func rulesOut(_ text: Substring) -> Bool {
        guard Self.isASCII(text) else { return false }
        return !needle.isContained(in: text)
    }

    /// Whether every byte of `text` is ASCII, eight bytes at a time where its bytes are
    /// contiguous (a byte at a time through `Substring.UTF8View` was most of a regex filter's
    /// first frame over 10,000 rows).
    static func isASCII(_ text: Substring) -> Bool {
        let checked = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return true }
            let raw = UnsafeRawPointer(base)
            var index = 0
            var high: UInt64 = 0
            while index + 8 <= bytes.count {
                high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < bytes.count {
                high |= UInt64(bytes[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
        return checked ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    // MARK: Reading the pattern

    private static let breaking: Set<Unicode.Scalar> = [".", "^", "$"]

    /// The longest required run, or `nil` when the pattern has a construct this reading does
    /// not follow.
    private static func longestRun(in scalars: [Unicode.Scalar]) -> String? {
        var runs: [String] = []
        var run = ""
        var depth = 0
        var index = 0
        func endRun() {
            if !run.isEmpty { runs.append(run) }
            run = ""
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "|":
                return nil  // an alternative may do without any of it
            case "(":
                if index < scalars.count, scalars[index] == "?" { return nil }  // flags, lookaround
                endRun()
                depth += 1
            case ")":
                endRun()
                depth = max(0, depth - 1)
            case "[":
                endRun()
                guard let end = classEnd(scalars, from: index) else { return nil }
                index = end
            case "\\":
                guard index < scalars.count else { return nil }
                let escaped = scalars[index]
                index += 1
                if escaped == "Q" { return nil }
                // `\.` is a literal dot; `\d`, `\b`, `\x41`, `\1`, `\p{…}` are not literals.
                if escaped.isASCII, !escaped.properties.isAlphabetic, !("0"..."9").contains(escaped), depth == 0 {
                    run.unicodeScalars.append(escaped)
                } else {
                    endRun()
                }
            case "?", "*", "{":
                // The character before is optional.
                if !run.isEmpty { run.unicodeScalars.removeLast() }
                endRun()
                if scalar == "{" {
                    while index < scalars.count, scalars[index] != "}" { index += 1 }
                    index += 1
                }
            case "+":
                endRun()  // kept, but a repeat may come between it and what follows
            default:
                if breaking.contains(scalar) || depth > 0 || !scalar.isASCII || scalar.value < 0x20 {
                    endRun()
                } else {
                    run.unicodeScalars.append(scalar)
                }
            }
        }
        endRun()
        return runs.max { $0.utf8.count < $1.utf8.count } ?? ""
    }

    /// The index after the `]` closing a class that opened before `start`, or `nil` for a
    /// nested class or one that never closes.
    private static func classEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        if index < scalars.count, scalars[index] == "^" { index += 1 }
        if index < scalars.count, scalars[index] == "]" { index += 1 }  // a leading `]` is literal
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 2
            case "[": return nil
            case "]": return index + 1
            default: index += 1
            }
        }
        return nil
    }
}
