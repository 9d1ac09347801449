/// Extra text attributes a ``Cell`` can carry on top of its role's ``Style``.
///
/// The painter combines them with the theme style using OR: a cell marked `.bold` is bold even
/// when its role's style is not.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Creates a set from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright) text.
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// Foreground and background swapped.
    public static let reverse = CellAttributes(rawValue: 1 << 1)
    /// Underlined text.
    public static let underline = CellAttributes(rawValue: 1 << 2)
    /// Faint text.
    public static let dim = CellAttributes(rawValue: 1 << 3)
}

/// One column of one row of a ``Grid``: a grapheme, its role and attributes.
///
/// A wide grapheme (CJK, most emoji) occupies two cells: the first holds the grapheme, the
/// second is a *continuation* (``isContinuation``) that the painter skips. A grapheme is never
/// split across cells, and a cell never holds a control character (``Grid`` replaces those).
public struct Cell: Hashable, Sendable {
    /// The grapheme shown in this column (a space for blank cells and continuations).
    public var character: Character
    /// What this cell means; the theme decides how it looks.
    public var role: ThemeRole
    /// Attributes added to the role's style.
    public var attributes: CellAttributes
    /// `true` for the right half of a wide grapheme that starts in the previous column.
    public var isContinuation: Bool

    /// Creates a cell; the defaults give a blank ``ThemeRole/background`` cell.
    public init(
        _ character: Character = " ",
        role: ThemeRole = .background,
        attributes: CellAttributes = [],
        isContinuation: Bool = false
    ) {
        self.character = character
        self.role = role
        self.attributes = attributes
        self.isContinuation = isContinuation
    }

    /// A blank cell of `role`.
    public static func blank(_ role: ThemeRole = .background) -> Cell {
        Cell(" ", role: role)
    }

    /// The number of columns this cell's grapheme takes (0 for a continuation).
    public var width: Int {
        isContinuation ? 0 : DisplayWidth.of(character)
    }
}
