/// Why a theme could not be loaded, with the file, line and column where that is known.
///
/// Every message names what went wrong and what would be accepted, so the user can fix the
/// file or the `--theme` option without reading docs:
///
/// ```text
/// mine.json: line 7, column 19: unknown colour "gren" for role "hit" (expected a name such as green, a number 0-255 or #rrggbb)
/// ```
public enum ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A place in a theme file.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        /// The file as given (path) or the built-in theme's name.
        public var file: String
        /// 1-based line.
        public var line: Int
        /// 1-based column, counted in Unicode scalars.
        public var column: Int

        /// Creates a location.
        public init(file: String, line: Int, column: Int) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// `"file: line L, column C"`.
        public var description: String { "\(SafeText.escape(file)): line \(line), column \(column)" }
    }

    /// `--theme NAME` named no built-in theme.
    case unknownTheme(name: String, builtIn: [String])
    /// `--theme PATH` named a file that does not exist.
    case fileNotFound(path: String)
    /// The file exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not valid JSON.
    case syntax(Location, message: String)
    /// Valid JSON, but not a theme: not an object, or no `"roles"` object.
    case notATheme(Location, reason: String)
    /// A role name that ``ThemeRole`` does not know.
    case unknownRole(Location, role: String, suggestion: String?)
    /// The same key written twice in one object; `key` is a path such as `"hit"` or `"hit.fg"`.
    case duplicateKey(Location, key: String, firstLine: Int)
    /// A colour that ``Color/init(parsing:)`` rejects; `value` is as written (strings quoted).
    case unknownColor(Location, value: String, role: String)
    /// A value of the wrong JSON type; `key` names it (`"colors"`, `"hit.bold"`).
    case wrongType(Location, key: String, expected: String, found: String)
    /// A key the format does not define; `context` says where ("the theme", `role "hit"`).
    case unknownKey(Location, key: String, context: String, expected: [String])

    /// A message that names the file and line and says what would be accepted.
    ///
    /// Text taken from the file or the command line (names, keys, values, paths) is passed
    /// through ``SafeText`` so a hostile theme file cannot put escape sequences on the terminal.
    public var description: String {
        let safe: (String) -> String = SafeText.escape
        switch self {
        case .unknownTheme(let name, let builtIn):
            return "unknown theme \"\(safe(name))\": built-in themes are \(builtIn.joined(separator: ", ")); "
                + "to load a file, pass a path that contains \"/\" or ends in \".json\""
        case .fileNotFound(let path):
            return "theme file \"\(safe(path))\" not found (check the path, or use a built-in theme name)"
        case .unreadable(let path, let reason):
            return "cannot read theme file \"\(safe(path))\": \(safe(reason))"
        case .syntax(let at, let message):
            return "\(at): JSON syntax error: \(message)"
        case .notATheme(let at, let reason):
            return "\(at): not a theme file: \(reason) (expected {\"name\": …, \"roles\": {…}})"
        case .unknownRole(let at, let role, let suggestion):
            return "\(at): unknown role \"\(safe(role))\" ("
                + (suggestion.map { "did you mean \"\($0)\"? " } ?? "")
                + "roles are \(ThemeRole.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .duplicateKey(let at, let key, let firstLine):
            return "\(at): \"\(safe(key))\" is written twice (first on line \(firstLine)); keep one"
        case .unknownColor(let at, let value, let role):
            return "\(at): unknown colour \(safe(value)) for role \"\(role)\" "
                + "(expected a name such as green, a number 0-255 or #rrggbb)"
        case .wrongType(let at, let key, let expected, let found):
            return "\(at): \"\(safe(key))\" must be \(expected), not \(found)"
        case .unknownKey(let at, let key, let context, let expected):
            return "\(at): unknown key \"\(safe(key))\" in \(context) (expected \(expected.joined(separator: ", ")))"
        }
    }
}
