/// The frame shown instead of the real layout when the terminal is too small for it.
extension Grid {
    /// A grid of `size` that says the terminal is smaller than `minimum` and how to fix it.
    ///
    /// The message is centred and clipped to whatever space there is, so even a 10×1
    /// terminal shows its first words:
    ///
    /// ```text
    ///        Terminal too small
    ///  80×24 needed, this one is 60×20
    ///   enlarge the window, or q to quit
    /// ```
    public static func terminalTooSmall(size: TerminalSize, minimum: TerminalSize) -> Grid {
        var grid = Grid(size: size)
        let lines: [(String, ThemeRole)] = [
            ("Terminal too small", .warning),
            ("\(minimum.columns)×\(minimum.rows) needed, this one is \(size.columns)×\(size.rows)", .text),
            ("enlarge the window, or q to quit", .dim),
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (offset, (line, role)) in lines.enumerated() {
            let lineWidth = DisplayWidth.of(line)
            let left = max(0, (size.columns - lineWidth) / 2)
            grid.write(line, x: left, y: top + offset, role: role, overflow: .ellipsis)
        }
        return grid
    }

    /// Whether `size` is at least `minimum` in both directions.
    public static func fits(_ size: TerminalSize, minimum: TerminalSize) -> Bool {
        size.columns >= minimum.columns && size.rows >= minimum.rows
    }
}
