import TerminalUI

/// One item of a header or footer line, with a long and a short form, so a line can shrink to
/// the terminal. Shrinking goes one item at a time — first the items marked `shrinksFirst`,
/// then from the last item backwards (items come in order of importance) — then the gaps
/// tighten, then items are dropped from the end.
struct Chunk: Sendable {
    var long: [Span]
    var short: [Span]
    /// Whether this item gives up its long form before any other (a title, say).
    var shrinksFirst = false

    init(_ long: [Span], short: [Span]? = nil, shrinksFirst: Bool = false) {
        self.long = long
        self.short = short ?? long
        self.shrinksFirst = shrinksFirst
    }

    /// Lays `chunks` out in at most `width` columns; the gaps between them are in `gapRole`.
    static func fit(_ chunks: [Chunk], width: Int, gapRole: ThemeRole = .text) -> [Span] {
        var forms = chunks.map(\.long)
        // Widths are measured once per form; the line's width is their sum plus the gaps.
        var widths = forms.map(\.width)
        let shortWidths = chunks.map(\.short.width)
        var gap = 2
        func fits() -> Bool {
            let shown = widths.filter { $0 > 0 }
            return shown.reduce(0, +) + gap * max(0, shown.count - 1) <= width
        }
        let order = chunks.indices.filter { chunks[$0].shrinksFirst } + chunks.indices.reversed().filter { !chunks[$0].shrinksFirst }
        for index in order where !fits() {
            forms[index] = chunks[index].short
            widths[index] = shortWidths[index]
        }
        if !fits() { gap = 1 }
        while !fits(), forms.count > 1 {
            forms.removeLast()
            widths.removeLast()
        }
        return join(forms, gap: gap, role: gapRole)
    }

    private static func join(_ parts: [[Span]], gap: Int, role: ThemeRole) -> [Span] {
        var result: [Span] = []
        for part in parts where !part.isEmpty {
            if !result.isEmpty { result.append(Span(String(repeating: " ", count: gap), role)) }
            result.append(contentsOf: part)
        }
        return result
    }
}
