import CacheAttach
import SessionLog
import TerminalUI

/// Why a command stopped, as the one line it prints on standard error and the exit status it
/// ends with.
///
/// ```text
/// cachescope: replay: /tmp/x is a directory, not a session log or HAR file
/// cachescope: cannot connect to http://127.0.0.1:9/: connection refused
/// ```
///
/// The status says whose move it is:
/// - **64** (`EX_USAGE`), ``usageStatus``: what was named on the command line cannot be used —
///   a ``PathError``, a theme that does not exist (`ThemeError`), an input that is not a
///   session log or HAR (`SessionLogError`, `HARError`), a what-if the command cannot run
///   (``WhatIfError``), a socket path too long for a socket (`AttachError.pathTooLong`), a
///   dashboard without a terminal. Fix
///   the command and run it again.
/// - **1**, ``failureStatus``: anything else — the network, a write that failed half-way, an
///   attach socket nobody listens on.
public struct CommandFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `EX_USAGE` from `sysexits.h`: the command line was wrong.
    public static let usageStatus: Int32 = 64
    /// Every other failure.
    public static let failureStatus: Int32 = 1

    /// The subcommand (`replay`).
    public var command: String
    /// What went wrong, naming the path or value concerned.
    public var message: String
    /// The exit status.
    public var status: Int32

    /// A usage error (status 64) with `message`.
    public static func usage(command: String, _ message: String) -> CommandFailure {
        CommandFailure(command: command, message: message, status: usageStatus)
    }

    /// A failure with an explicit message and status.
    public init(command: String, message: String, status: Int32) {
        self.command = command
        self.message = message
        self.status = status
    }

    /// The failure for `error`, with the status its kind calls for (see the type's discussion).
    public init(command: String, _ error: any Error) {
        if let failure = error as? CommandFailure {
            self = failure
            return
        }
        self.init(command: command, message: String(describing: error), status: Self.status(for: error))
    }

    /// One line (line breaks in the message become spaces): `cachescope: COMMAND: MESSAGE` for
    /// a usage error, which points at what was typed; `cachescope: MESSAGE` for other failures,
    /// which say what failed (`cachescope: cannot connect to http://…`). Control characters in
    /// the message — from a filter, a path or a server — are written as escapes (`\e`), as the
    /// dashboard writes untrusted text, so none acts on the terminal.
    public var description: String {
        let flat = SafeText.escape(message.split(whereSeparator: \.isNewline).joined(separator: " "), backslashes: false)
        return status == Self.usageStatus ? "cachescope: \(command): \(flat)" : "cachescope: \(flat)"
    }

    /// Prints ``description`` and a line break on standard error.
    public func report() {
        Console.writeError(description + "\n")
    }

    /// 64 for problems with what the command line named, 1 for the rest.
    static func status(for error: any Error) -> Int32 {
        switch error {
        case is PathError, is ThemeError, is WhatIfError:
            return usageStatus
        case let error as TerminalError:
            // A dashboard asked for without a terminal: run it in one, or use --no-ui/--summary.
            if case .notATerminal = error { return usageStatus }
            return failureStatus
        case let error as SessionLogError:
            switch error {
            case .cannotCreate, .writeFailed, .keptAside, .lost: return failureStatus
            default: return usageStatus
            }
        case let error as HARError:
            if case .writeFailed = error { return failureStatus }
            return usageStatus
        case AttachError.pathTooLong:
            // A socket path no socket can have: the command line named it.
            return usageStatus
        default:
            return failureStatus
        }
    }
}
