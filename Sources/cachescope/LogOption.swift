import ArgumentParser
import CacheScopeApp

/// `--log FILE`, shared by the commands that open the dashboard (which must never print on the
/// terminal it draws: their log goes to a file).
struct LogOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Append the log here (a text file; created with mode 0600). Default: cachescope-COMMAND.log in the temporary directory.",
        valueName: "FILE"))
    var log: String?

    /// The checked `--log`, or `nil` when not given.
    /// - Throws: `PathError` (a usage error).
    func path() throws -> OutputPath? {
        try log.map { try OutputPath($0, kind: .logFile, option: "--log") }
    }

    /// Sends the process's log to the file (see ``FileLogging``).
    /// - Returns: a note for the status line when logging is off.
    func start(command: String) throws -> String? {
        FileLogging.start(try path(), command: command)
    }
}
