import Foundation
import Logging
import TerminalUI

/// Where the commands that own the terminal (`demo`, `attach`, `replay`) send their log:
/// swift-log's default handler writes to standard error, which would draw over the dashboard,
/// so every such command logs to a file instead — `--log FILE`, or a default file in the
/// temporary directory — and to nowhere at all if that file cannot be opened.
public enum FileLogging {
    /// The default log file of `command`: `cachescope-COMMAND.log` in the temporary directory.
    public static func defaultPath(command: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-\(command).log").path
    }

    /// Sends every `Logger` of the process to `path` (appended to, created 0600), or to
    /// ``defaultPath(command:)`` when `path` is `nil`. Call once, before anything logs.
    /// - Returns: a note for the dashboard's status line when the file cannot be opened
    ///   (logging is then off, never on the terminal); `nil` when logging works.
    public static func start(_ path: OutputPath?, command: String) -> String? {
        let file = path?.path ?? defaultPath(command: command)
        do {
            try FileLogHandler.bootstrap(path: file, level: .info)
            return nil
        } catch {
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
            return "logging is off: \(error)"
        }
    }
}

/// Where the commands that do not own the terminal (`get`, `origin`, `export`, `purge`) send
/// their log: standard error, warnings and worse only — what they print there is their own
/// outcome line or message, which a library's notes (`shared tier schema migrated`) would
/// otherwise come between; a warning (the shared tier unreachable) still shows.
public enum StandardErrorLogging {
    /// Sends every `Logger` of the process to standard error at `.warning` and above. Call
    /// once, before anything logs.
    public static func start() {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
    }
}
