import ArgumentParser
import CacheScopeApp

/// `--theme NAME|PATH`, shared by the commands that open the dashboard.
struct ThemeOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A built-in theme (default, light, solarized-dark, high-contrast, mono) or a theme file path (contains / or ends in .json).",
        valueName: "NAME|PATH"))
    var theme: String?

    /// The checked choice.
    /// - Throws: `PathError` or `ThemeError` (usage errors).
    func choice() throws -> ThemeChoice {
        try ThemeChoice(theme)
    }
}
