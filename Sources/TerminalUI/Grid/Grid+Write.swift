/// Writing text into a grid by display width.
extension Grid {
    /// What ``Grid/write(_:x:y:role:attributes:maxWidth:overflow:)`` does with text that does
    /// not fit.
    public enum Overflow: Hashable, Sendable {
        /// Cut the text at the limit.
        case clip
        /// Cut the text and end it with `…` in the last column that fits.
        case ellipsis
    }

    /// Writes `text` starting at column `x` of row `y`, measuring each grapheme by its display
    /// width (``DisplayWidth``), and returns the number of columns it used.
    ///
    /// - Text stops at the right edge of the grid and after `maxWidth` columns (unlimited by
    ///   default); with ``Overflow/ellipsis`` a cut text ends in `…`.
    /// - A wide grapheme takes two cells, the second a continuation. One that would straddle
    ///   the limit is not drawn; the columns up to the limit become blanks of `role`.
    /// - Graphemes are never split; zero-width ones (a lone combining mark, a bidi control)
    ///   are dropped, and control characters become `�` (U+FFFD): escape untrusted text with
    ///   ``SafeText`` first to show them readably.
    /// - Columns left of the grid (negative `x`) still count towards `maxWidth`.
    ///
    /// ```swift
    /// grid.write("https://example.com/a/very/long/path", x: 2, y: 4, maxWidth: 20, overflow: .ellipsis)
    /// ```
    @discardableResult
    public mutating func write(
        _ text: String, x: Int, y: Int,
        role: ThemeRole = .text, attributes: CellAttributes = [],
        maxWidth: Int? = nil, overflow: Overflow = .clip
    ) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, x + max(0, maxWidth ?? width - x))
        let available = limit - x
        guard available > 0 else { return 0 }
        let graphemes = Self.measuredGraphemes(text)
        let total = graphemes.reduce(0) { $0 + $1.width }
        let cut = total > available
        let budget = cut && overflow == .ellipsis ? available - 1 : available
        var column = x
        for (character, characterWidth) in graphemes {
            guard column - x + characterWidth <= budget else { break }
            place(character, width: characterWidth, x: column, y: y, role: role, attributes: attributes)
            column += characterWidth
        }
        guard cut else { return column - x }
        if overflow == .ellipsis {
            put(Cell("…", role: role, attributes: attributes), x: column, y: y, width: 1)
            column += 1
        }
        // A wide grapheme that did not fit leaves a gap; blank it so no stale cell shows.
        while column < limit {
            put(.blank(role), x: column, y: y, width: 1)
            column += 1
        }
        return column - x
    }

    /// Places one grapheme, blanking whatever part of it falls left of the grid.
    private mutating func place(
        _ character: Character, width characterWidth: Int, x: Int, y: Int,
        role: ThemeRole, attributes: CellAttributes
    ) {
        if x >= 0 {
            put(Cell(character, role: role, attributes: attributes), x: x, y: y, width: characterWidth)
        } else if x + characterWidth > 0 {
            for column in 0..<(x + characterWidth) {
                put(.blank(role), x: column, y: y, width: 1)
            }
        }
    }

    /// The graphemes of `text` that take space, each with its width; control characters are
    /// replaced by U+FFFD so nothing written to a grid can reach the terminal as a control.
    static func measuredGraphemes(_ text: String) -> [(character: Character, width: Int)] {
        var result: [(character: Character, width: Int)] = []
        for character in text {
            let shown = DisplayWidth.isControl(character) ? "\u{FFFD}" : character
            let characterWidth = DisplayWidth.of(shown)
            if characterWidth > 0 { result.append((character: shown, width: characterWidth)) }
        }
        return result
    }
}
