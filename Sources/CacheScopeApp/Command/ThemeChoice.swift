import Foundation
public import TerminalUI

/// The `--theme NAME|PATH` value of `demo`, `replay` and `attach`, checked before the command
/// starts.
///
/// - A **name** (no `/`, not ending in `.json`) must be a built-in theme; otherwise
///   `ThemeError.unknownTheme` lists them.
/// - A **path** must be an ``InputPath`` of kind ``FileKind/theme``: an existing, readable,
///   non-empty text file that starts like a JSON object.
///
/// Both are usage errors (exit 64). A theme file that passes these checks but whose content is
/// wrong (an unknown colour, a JSON syntax error) does not stop the command: the dashboard
/// starts with `default` and its status line names the file, line and problem
/// (``resolve()``), so a typo in a theme never hides the traffic.
///
/// ```swift
/// let choice = try ThemeChoice("./mine.json")
/// let (theme, problem) = choice.resolve()
/// ```
public struct ThemeChoice: Sendable, Hashable {
    /// The option's value; `nil` when not given (the `default` theme).
    public let value: String?

    /// Checks `value`.
    /// - Throws: ``PathError`` for a path that cannot be a theme file, `ThemeError` for an
    ///   unknown built-in name.
    public init(_ value: String?) throws {
        if let value {
            if ThemeLoader.isPath(value) {
                _ = try InputPath(value, kind: .theme, option: "--theme")
            } else {
                _ = try ThemeLoader.builtIn(named: value)
            }
        }
        self.value = value
    }

    /// The theme to start with, and why it is not the one asked for (a theme file with an
    /// error in it: the dashboard starts with `default` and says so on the status line).
    public func resolve() -> (theme: Theme, problem: String?) {
        do {
            return (try ThemeLoader.resolve(option: value), nil)
        } catch {
            let fallback = (try? ThemeLoader.builtIn(named: ThemeLoader.defaultName))
                ?? Theme(name: ThemeLoader.defaultName, usesColor: false, styles: [:])
            return (fallback, "started with the default theme: \(error)")
        }
    }
}
