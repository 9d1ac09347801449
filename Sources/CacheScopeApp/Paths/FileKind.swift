import TerminalUI

/// What a path option should name — a session log, a HAR file, a theme — so a ``PathError``
/// can say what was expected and the path checks know what content to look for.
///
/// ```swift
/// let input = try InputPath("capture.jsonl", kind: .sessionLogOrHAR, option: "FILE")
/// ```
public struct FileKind: Sendable, Hashable, CustomStringConvertible {
    /// What the content must look like.
    enum Content: Sendable, Hashable {
        /// A JSON object: the first non-blank byte is `{`.
        case jsonObject
        /// Any text (UTF-8 without NUL bytes).
        case text
    }

    /// The name in messages: `session log`, `HAR file`.
    public let name: String
    let content: Content
    /// The formats an existing output file may already hold and still be replaced.
    let replaceableFormats: Set<FileFormat>
    /// The largest input of this kind read, in bytes; `nil` for no limit.
    var largestSize: Int64? = nil
    /// Whether an output of this kind is appended to (a log) rather than replaced.
    var appends: Bool { self == .logFile }

    /// `a session log`, `an attach socket`.
    public var withArticle: String {
        let vowel = name.first.map { "aeiouAEIOU".contains($0) } ?? false
        return (vowel ? "an " : "a ") + name
    }

    public var description: String { name }

    /// A CacheScope session log (JSON Lines); written only over another session log.
    public static let sessionLog = FileKind(name: "session log", content: .jsonObject, replaceableFormats: [.sessionLog])
    /// A HAR 1.2 archive (JSON); written only over another HAR file.
    public static let har = FileKind(name: "HAR file", content: .jsonObject, replaceableFormats: [.har])
    /// What `replay` reads: a session log or a HAR capture, told apart by content.
    public static let sessionLogOrHAR = FileKind(name: "session log or HAR file", content: .jsonObject, replaceableFormats: [])
    /// A dashboard theme (JSON, `docs/themes.md`).
    /// Larger than ``ThemeLoader/maximumFileSize`` is refused before the command starts.
    public static let theme = FileKind(
        name: "theme file", content: .jsonObject, replaceableFormats: [], largestSize: Int64(ThemeLoader.maximumFileSize))
    /// A text log that lines are appended to (`--log`).
    public static let logFile = FileKind(name: "log file", content: .text, replaceableFormats: [])
    /// A directory (`--cache-dir`).
    public static let directory = FileKind(name: "directory", content: .text, replaceableFormats: [])
    /// A Unix socket a CacheScope process publishes its events on.
    public static let attachSocket = FileKind(name: "attach socket", content: .text, replaceableFormats: [])
}

/// The formats CacheScope tells apart by a file's first bytes, whatever its name.
public enum FileFormat: String, Sendable, Hashable {
    /// `{"format":"cachescope-session",…` on the first line.
    case sessionLog
    /// A JSON object whose first member is `"log"`, as every HAR writer puts it.
    case har
}
