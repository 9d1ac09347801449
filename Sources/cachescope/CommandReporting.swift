import ArgumentParser
import CacheScopeApp
import Synchronization

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

    /// Runs a `validate()` body; an error is kept (``PendingUsageFailure``) and reported once
    /// parsing is over — not at once, since ArgumentParser shows the help instead when the
    /// command line asked for it (`cachescope purge --help` printed the help and a complaint
    /// that it said nothing to purge).
    func validating(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let code as ExitCode {
            throw code
        } catch {
            let failure = Self.failure(for: error)
            PendingUsageFailure.keep(failure)
            throw ExitCode(failure.status)
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

/// A failure a subcommand's `validate()` found, waiting to be reported by
/// ``CacheScopeCommand/main()`` once ArgumentParser has finished with the command line (which
/// shows the help instead, when asked for).
enum PendingUsageFailure {
    private static let kept = Mutex<CommandFailure?>(nil)

    /// Keeps `failure` to report; the first one kept wins.
    static func keep(_ failure: CommandFailure) {
        kept.withLock { if $0 == nil { $0 = failure } }
    }

    /// The failure kept, if any, now no longer kept.
    static func take() -> CommandFailure? {
        kept.withLock { kept in
            defer { kept = nil }
            return kept
        }
    }
}
