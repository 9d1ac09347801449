/// A named mapping from every ``ThemeRole`` to a ``Style``.
///
/// Themes come from JSON files (format: `docs/themes.md`); the built-in ones ship in the
/// top-level `themes/` folder and are compiled into the binary. Obtain one through
/// ``ThemeLoader``:
///
/// ```swift
/// let theme = try ThemeLoader.resolve(option: "solarized-dark")
/// theme.style(for: .hit)   // Style(fg: #859900, bg: #002b36, bold: true)
/// ```
public struct Theme: Hashable, Sendable, Identifiable {
    /// The theme's name (`"default"`, `"mono"`, or what a custom file calls itself).
    public var name: String
    /// Whether the painter may use colours. `false` (the `mono` theme) paints with attributes
    /// only, whatever colours the styles carry.
    public var usesColor: Bool
    /// Styles by role, as written in the theme file merged over the default theme.
    public var styles: [ThemeRole: Style]
    /// The file it was loaded from; `nil` for a built-in theme (even one a file names alike).
    public var file: String?

    /// The theme's name, which identifies it in the cycling order.
    public var id: String { name }

    /// Creates a theme from styles; roles left out get an empty ``Style``.
    public init(name: String, usesColor: Bool, styles: [ThemeRole: Style]) {
        self.name = name
        self.usesColor = usesColor
        self.styles = styles
        file = nil
    }

    /// The effective style of `role`: unset colours come from the ``ThemeRole/background``
    /// role, and then from the terminal default; attributes are the role's own. Without
    /// colour (``usesColor`` is `false`) both colours are ``Color/default``.
    public func style(for role: ThemeRole) -> Style {
        var style = styles[role] ?? Style()
        guard usesColor else {
            style.fg = .default
            style.bg = .default
            return style
        }
        let base = styles[.background] ?? Style()
        style.fg = style.fg ?? base.fg ?? .default
        style.bg = style.bg ?? base.bg ?? .default
        return style
    }
}
