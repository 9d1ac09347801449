import CNcurses
import Synchronization

/// Painting a ``Grid``: roles become curses attributes and colour pairs, cells become
/// `cchar_t`s, and one `wnoutrefresh` + `doupdate` sends only what changed.
extension Terminal {
    /// Draws `grid` with `theme`'s styles and updates the screen in one go.
    ///
    /// Cells beyond the screen are skipped; a wide grapheme is drawn once, in its first
    /// column, and only when both of its columns fit. Control or zero-width graphemes (which
    /// ``Grid/write(_:x:y:role:attributes:maxWidth:overflow:)`` never stores, but a hand-made
    /// ``Cell`` could hold) are drawn as `�` and a space. `fullRepaint` clears and redraws
    /// the whole screen (after a resize or theme change); otherwise curses sends only the
    /// difference from the previous frame, so nothing flickers. Does nothing before
    /// ``start()``.
    public func paint(_ grid: Grid, theme: Theme, fullRepaint: Bool = false) {
        state.withLock { state in
            guard let window = state.window else { return }
            let rows = min(grid.height, Int(getmaxy(window)))
            let columns = Int(getmaxx(window))
            var looks: [ThemeRole: (attributes: attr_t, pair: Int16)] = [:]
            for role in ThemeRole.allCases {
                looks[role] = look(of: theme.style(for: role), colored: theme.usesColor, state: &state)
            }
            werase(window)
            for y in 0..<rows {
                var x = 0
                for cell in grid.row(y) {
                    defer { x += 1 }
                    guard !cell.isContinuation, let look = looks[cell.role] else { continue }
                    let shown = Self.paintable(cell.character)
                    guard x + shown.width <= columns else { continue }
                    draw(shown.character, at: (x, y), attributes: look.attributes | Self.cursesAttributes(cell.attributes),
                         pair: look.pair, window: window)
                }
            }
            if fullRepaint { clearok(window, true) }
            wnoutrefresh(window)
            doupdate()
            // Bracketed paste again: after Ctrl-Z and `fg` the shell has turned it off, and
            // ncurses, which restores its own modes, knows nothing of it.
            Self.writeRaw(KeyDecoder.bracketedPasteOn)
        }
    }

    // MARK: Cells

    private func draw(
        _ character: Character, at position: (x: Int, y: Int), attributes: attr_t, pair: Int16,
        window: UnsafeMutablePointer<WINDOW>
    ) {
        var cell = cchar_t()
        if let ascii = character.asciiValue {
            // Most cells: one ASCII scalar, set without building arrays.
            var wide: (wchar_t, wchar_t) = (wchar_t(ascii), 0)
            let set = withUnsafeMutablePointer(to: &wide) {
                $0.withMemoryRebound(to: wchar_t.self, capacity: 2) { setcchar(&cell, $0, attributes, pair, nil) }
            }
            if set == OK { mvwadd_wch(window, Int32(position.y), Int32(position.x), &cell) }
            return
        }
        // cchar_t holds one spacing character plus up to four combining ones; longer clusters
        // (emoji ZWJ sequences) keep their first scalar, which is what the column width is for.
        var scalars = Array(character.unicodeScalars.prefix(5))
        if scalars.dropFirst().contains(where: { DisplayWidth.of($0) != 0 }) { scalars = [scalars[0]] }
        var wide = scalars.map { wchar_t(bitPattern: $0.value) } + [0]
        guard setcchar(&cell, &wide, attributes, pair, nil) == OK else { return }
        mvwadd_wch(window, Int32(position.y), Int32(position.x), &cell)
    }

    /// The grapheme to draw and its width: controls become `�`, zero-width graphemes a space.
    static func paintable(_ character: Character) -> (character: Character, width: Int) {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii != 0x7F { return (character, 1) }
        if DisplayWidth.isControl(character) { return ("\u{FFFD}", 1) }
        let width = DisplayWidth.of(character)
        return width == 0 ? (" ", 1) : (character, width)
    }

    // MARK: Styles

    private func look(of style: Style, colored: Bool, state: inout State) -> (attributes: attr_t, pair: Int16) {
        let attributes = Self.cursesAttributes(style.attributes)
        guard colored, state.colorCount > 0 else { return (attributes, 0) }
        var foreground = Int16((style.fg ?? .default).paletteIndex(forColorCount: state.colorCount))
        var background = Int16((style.bg ?? .default).paletteIndex(forColorCount: state.colorCount))
        if !state.defaultColorsAvailable {
            // Without use_default_colors, -1 is invalid: use the classic white on black.
            if foreground == -1 { foreground = 7 }
            if background == -1 { background = 0 }
        }
        let colors = ColorPairTable.Colors(foreground: foreground, background: background)
        let pair = state.pairs.number(for: colors) { number, colors in
            init_pair(number, colors.foreground, colors.background) == OK
        }
        return (attributes, pair)   // pair 0 when out of pairs: default colours, same attributes
    }

    static func cursesAttributes(_ attributes: CellAttributes) -> attr_t {
        var result: attr_t = 0
        if attributes.contains(.bold) { result |= cn_attr_bold() }
        if attributes.contains(.dim) { result |= cn_attr_dim() }
        if attributes.contains(.reverse) { result |= cn_attr_reverse() }
        if attributes.contains(.underline) { result |= cn_attr_underline() }
        return result
    }
}
