import TerminalUI

/// A run of text in one role: the unit lines are built from before they reach the grid.
struct Span: Hashable, Sendable {
    var text: String
    var role: ThemeRole
    var attributes: CellAttributes = []

    init(_ text: String, _ role: ThemeRole = .text, attributes: CellAttributes = []) {
        self.text = text
        self.role = role
        self.attributes = attributes
    }

    /// The display width of the text.
    var width: Int { TextWidth.of(text) }
}

extension [Span] {
    /// The display width of all spans.
    var width: Int { reduce(0) { $0 + $1.width } }

    /// The same spans in one role (a selected row is drawn in `selection` throughout), except
    /// search matches, which stay visible.
    func recolored(_ role: ThemeRole) -> [Span] {
        map { $0.role == .searchMatch ? $0 : Span($0.text, role, attributes: $0.attributes) }
    }
}
