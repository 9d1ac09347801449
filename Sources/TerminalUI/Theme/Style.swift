/// How one ``ThemeRole`` looks: colours plus text attributes.
///
/// A `nil` colour means "not set here": ``Theme/style(for:)`` fills it from the theme's
/// ``ThemeRole/background`` role, and failing that from the terminal default. Attributes are
/// plain flags; a ``Cell`` can add more of its own (they are combined with OR).
///
/// ```swift
/// Style(fg: .named(.green), bold: true)
/// Style(fg: .named(.black), bg: .rgb(0x5f, 0xaf, 0xff))
/// ```
public struct Style: Hashable, Sendable {
    /// Foreground colour; `nil` inherits the background role's foreground.
    public var fg: Color?
    /// Background colour; `nil` inherits the background role's background.
    public var bg: Color?
    /// Bold (or bright) text.
    public var bold: Bool
    /// Underlined text.
    public var underline: Bool
    /// Foreground and background swapped; the main way the `mono` theme shows a selection.
    public var reverse: Bool
    /// Faint text.
    public var dim: Bool

    /// Creates a style; every parameter defaults to "not set" / `false`.
    public init(
        fg: Color? = nil, bg: Color? = nil,
        bold: Bool = false, underline: Bool = false, reverse: Bool = false, dim: Bool = false
    ) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
        self.dim = dim
    }

    /// The attributes of this style as a ``CellAttributes`` set.
    public var attributes: CellAttributes {
        var set: CellAttributes = []
        if bold { set.insert(.bold) }
        if underline { set.insert(.underline) }
        if reverse { set.insert(.reverse) }
        if dim { set.insert(.dim) }
        return set
    }
}
