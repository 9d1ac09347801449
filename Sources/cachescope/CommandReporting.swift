import ArgumentParser
import CacheScopeApp

/// How every subcommand fails: one line, `cachescope: COMMAND: MESSAGE`, on standard error and
/// the exit status ``CommandFailure`` picks (64 for what the command line named, 1 for the
/// rest) — never ArgumentParser's usage text or an `Error:` dump.
extension ParsableCommand {
    /// The subcommand's name for messages.
    static var reportedName: String { configuration.commandName ?? "cachescope" }

    /// Runs `body`; an error is reported as one line and becomes the process's exit status.
    func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Self.exit(for: error)
        }
    }

    /// Runs `body`; an error is reported as one line and becomes the process's exit status.
    func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.exit(for: error)
        }
    }

    /// Prints the line for `error` and returns the exit code to throw; an `ExitCode` passes
    /// through untouched, a `ValidationError` is a usage error.
    static func exit(for error: any Error) -> ExitCode {
        if let code = error as? ExitCode { return code }
        let failure = failure(for: error)
        failure.report()
        return ExitCode(failure.status)
    }

    /// The failure `error` stands for: a `ValidationError` is a usage error.
    private static func failure(for error: any Error) -> CommandFailure {
        if let validation = error as? ValidationError { return CommandFailure.usage(command: reportedName, validation.message) }
        return CommandFailure(command: reportedName, error)
    }
}
