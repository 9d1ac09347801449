public import Foundation

/// Finds and loads themes: built-ins by name, files by path, `NO_COLOR`, and the `t` cycle.
///
/// `--theme VALUE` semantics (``resolve(option:environment:)``): a value that contains `/` or
/// ends in `.json` is a file path; anything else is a built-in name. When the environment
/// has `NO_COLOR` set (to any value, even empty) the result is always the `mono` theme.
///
/// ```swift
/// let theme = try ThemeLoader.resolve(option: options.theme)   // nil → "default"
/// let next = try ThemeLoader.nextTheme(after: theme)           // default → light → …
/// ```
public enum ThemeLoader {
    /// The built-in theme names in cycling order:
    /// `default`, `light`, `solarized-dark`, `high-contrast`, `mono`.
    public static var builtInNames: [String] { BuiltInThemes.files.map(\.name) }

    /// The name of the theme the dashboard starts with.
    public static let defaultName = "default"

    /// The name of the attribute-only theme used for `NO_COLOR` and colourless terminals.
    public static let monoName = "mono"

    /// A built-in theme by name.
    /// - Throws: ``ThemeError/unknownTheme(name:builtIn:)`` for a name not in ``builtInNames``.
    public static func builtIn(named name: String) throws(ThemeError) -> Theme {
        guard let result = BuiltInThemes.decoded[name] else {
            throw .unknownTheme(name: name, builtIn: builtInNames)
        }
        return try result.get()
    }

    /// Loads a theme file; roles it leaves out come from the built-in `default` theme.
    /// - Throws: ``ThemeError`` naming the file (and line and column for content errors).
    public static func load(path: String) throws(ThemeError) -> Theme {
        let bytes = try readFile(path)
        let fallbackName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var theme = try decode(bytes, file: path, fallbackName: fallbackName)
        theme.file = path
        return theme
    }

    /// Decodes theme file bytes; `file` is the name errors use.
    public static func decode(_ bytes: [UInt8], file: String, fallbackName: String) throws(ThemeError) -> Theme {
        let base = try builtIn(named: defaultName)
        return try ThemeFileDecoder(file: file, base: base.styles).decode(bytes, fallbackName: fallbackName)
    }

    /// Whether a `--theme` value is a path (contains `/` or ends in `.json`) rather than a name.
    public static func isPath(_ value: String) -> Bool {
        value.contains("/") || value.hasSuffix(".json")
    }

    /// Whether `NO_COLOR` is set in `environment`, whatever its value (see no-color.org).
    public static func noColorRequested(in environment: [String: String]) -> Bool {
        environment["NO_COLOR"] != nil
    }

    /// The theme for a `--theme` option value (`nil` means `default`), honouring `NO_COLOR`.
    ///
    /// `NO_COLOR` wins over the option: the result is `mono` and the option is not read.
    public static func resolve(
        option: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ThemeError) -> Theme {
        if noColorRequested(in: environment) { return try builtIn(named: monoName) }
        guard let option else { return try builtIn(named: defaultName) }
        return isPath(option) ? try load(path: option) : try builtIn(named: option)
    }

    /// The next built-in theme after `current` in ``builtInNames`` order, wrapping from `mono`
    /// back to `default`; a theme loaded from a file is followed by `default`.
    public static func nextTheme(after current: Theme) throws(ThemeError) -> Theme {
        // By where it came from, not its name: a file may call itself `solarized-dark`.
        try builtIn(named: current.file == nil ? nextName(after: current.name) : defaultName)
    }

    /// The name that follows `name` in the cycle (`default` for unknown names).
    public static func nextName(after name: String) -> String {
        let names = builtInNames
        guard let index = names.firstIndex(of: name) else { return defaultName }
        return names[(index + 1) % names.count]
    }

    // MARK: Files

    /// The largest theme file read: a theme is a few kilobytes, and a file of tens of
    /// megabytes given by mistake would hold the dashboard's start for half a minute.
    public static let maximumFileSize = 1 << 20

    private static func readFile(_ path: String) throws(ThemeError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "permission denied")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumFileSize {
            throw .unreadable(path: path, reason: "it is \(size) bytes, and a theme file may have at most \(maximumFileSize) (1 MiB)")
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
    }
}
