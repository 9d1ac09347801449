import TerminalUI
import CacheStore

/// The y/n questions for `D` and for a purge with a preview, drawn as a box over the middle of
/// the view.
enum ConfirmBox {
    static func draw(_ overlay: Overlay, into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry) {
        let question: [[Span]]
        switch overlay {
        case .confirmPurgeAll:
            let entries = state.shown.store?.entryCount ?? state.shown.entries.count
            question = [
                [Span("Purge everything?", .warning, attributes: .bold)],
                [Span("Removes all \(Format.count(entries)) stored \(entries == 1 ? "entry" : "entries") from memory and disk.")],
            ]
        case .confirmPurge(let preview):
            question = [
                [Span("Purge \(Escaped.text(preview.selection))?", .warning, attributes: .bold)],
                [Span(preview.summary)],
                [Span("(\(Format.count(preview.keyCount)) \(preview.keyCount == 1 ? "key" : "keys"), every variant)", .dim)],
            ]
        case .detail, .help:
            return
        }
        let lines = question + [
            [],
            [Span("y", .key, attributes: .bold), Span(" purge    "), Span("n", .key, attributes: .bold), Span(" cancel")],
        ]
        let inner = min(geometry.size.columns - 4, max(30, lines.map(\.width).max() ?? 0))
        let boxWidth = inner + 4
        let boxHeight = lines.count + 2
        let x = max(0, (geometry.size.columns - boxWidth) / 2)
        let y = geometry.bodyTop + max(0, (geometry.bodyRows - boxHeight) / 2)
        grid.fill(x: x, y: y, width: boxWidth, height: boxHeight, role: .text)
        let horizontal = String(repeating: "─", count: boxWidth - 2)
        grid.write("┌" + horizontal + "┐", x: x, y: y, role: .border)
        grid.write("└" + horizontal + "┘", x: x, y: y + boxHeight - 1, role: .border)
        for (index, line) in lines.enumerated() {
            let row = y + 1 + index
            grid.write("│", x: x, y: row, role: .border)
            grid.write("│", x: x + boxWidth - 1, y: row, role: .border)
            grid.write(line, x: x + 2, y: row, maxWidth: inner)
        }
    }
}
