/// Plain-text views of a grid for tests and debugging.
extension Grid {
    /// The grid's characters, rows joined by `"\n"`, with **trailing spaces trimmed** from
    /// every row (so snapshot literals survive editors that strip trailing whitespace; use
    /// ``roleMask(_:other:)`` to check where coloured blanks are).
    ///
    /// Wide graphemes appear once (their continuation cell adds nothing), so each line reads
    /// as the terminal shows it.
    public var text: String {
        (0..<height).map { y in
            var line = ""
            for cell in row(y) where !cell.isContinuation {
                line.append(cell.character)
            }
            return Self.trimmingTrailingSpaces(line)
        }.joined(separator: "\n")
    }

    /// One character per column showing each cell's role, rows joined by `"\n"` and trailing
    /// spaces trimmed like ``text``.
    ///
    /// Roles absent from `legend` show as `other` (a space by default). A wide grapheme's
    /// two columns both show its role, so the mask lines up with display columns.
    ///
    /// ```swift
    /// grid.roleMask([.hit: "h", .miss: "m", .header: "H"])
    /// ```
    public func roleMask(_ legend: [ThemeRole: Character], other: Character = " ") -> String {
        (0..<height).map { y in
            Self.trimmingTrailingSpaces(String(row(y).map { legend[$0.role] ?? other }))
        }.joined(separator: "\n")
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
