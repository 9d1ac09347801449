/// The themes compiled into the binary from the top-level `themes/` folder.
///
/// `Package.swift` declares `resources: [.embedInCode("Resources/themes")]`, and
/// `Resources/themes` is a symlink to `../../../themes`: SwiftPM turns every file there into a
/// `PackageResources.<file>_json` byte array at build time. So the JSON files stay the one
/// source of truth, and the themes load from any working directory and from an installed
/// binary with no resource bundle beside it. `BuiltInThemeTests` fails when a file in
/// `themes/` is missing from this table (or the other way round).
enum BuiltInThemes {
    /// The built-in themes in `t` (next theme) order, with their embedded file bytes.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("default", PackageResources.default_json),
        ("light", PackageResources.light_json),
        ("solarized-dark", PackageResources.solarized_dark_json),
        ("high-contrast", PackageResources.high_contrast_json),
        ("mono", PackageResources.mono_json),
    ]

    /// Every built-in theme decoded once: `default` on its own, the others over `default`.
    static let decoded: [String: Result<Theme, ThemeError>] = {
        var results: [String: Result<Theme, ThemeError>] = [:]
        let base = Result { () throws(ThemeError) -> Theme in
            try decode("default", base: [:])
        }
        for (name, _) in files {
            if name == "default" {
                results[name] = base
            } else {
                results[name] = base.flatMap { defaultTheme in
                    Result { () throws(ThemeError) -> Theme in try decode(name, base: defaultTheme.styles) }
                }
            }
        }
        return results
    }()

    private static func decode(_ name: String, base: [ThemeRole: Style]) throws(ThemeError) -> Theme {
        let bytes = files.first { $0.name == name }?.bytes ?? []
        return try ThemeFileDecoder(file: "themes/\(name).json", base: base)
            .decode(bytes, fallbackName: name)
    }
}
