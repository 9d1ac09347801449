/// Why the terminal could not be taken over.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (redirected to a file or a pipe, or run
    /// by CI). The dashboard needs both.
    case notATerminal(stdinIsTerminal: Bool, stdoutIsTerminal: Bool)
    /// ncurses does not know the terminal type in `$TERM` (or `TERM` is unset).
    case unknownTerminalType(term: String?)
    /// The terminal type cannot move the cursor (`TERM=dumb`), so no screen can be drawn.
    case cannotDraw(term: String)
    /// Another ``Terminal`` already owns the screen in this process.
    case alreadyActive
    /// ``ScreenLoop/run(render:handleKey:)`` was called while that loop was already running.
    case loopAlreadyRunning

    /// A sentence the user can act on. (What else the command could do instead — `--no-ui`,
    /// `--summary` — is for the command to add: not every command has such an option.)
    public var description: String {
        switch self {
        case .notATerminal(let stdinIsTerminal, let stdoutIsTerminal):
            let which = [stdinIsTerminal ? nil : "standard input", stdoutIsTerminal ? nil : "standard output"]
                .compactMap { $0 }.joined(separator: " and ")
            return "the dashboard needs a terminal, but \(which) \(which.contains(" and ") ? "are" : "is") "
                + "not one (redirected to a file or a pipe?); run it in a terminal"
        case .unknownTerminalType(let term?):
            return "cannot start the dashboard: the terminal type TERM=\"\(term)\" is not in the terminfo "
                + "database; set TERM to a known type such as xterm-256color"
        case .unknownTerminalType(nil):
            return "cannot start the dashboard: TERM is not set; set it to your terminal's type "
                + "(for example xterm-256color)"
        case .cannotDraw(let term):
            return "cannot start the dashboard: the terminal type TERM=\"\(term)\" cannot move the cursor, so no screen "
                + "can be drawn; set TERM to your terminal's type (for example xterm-256color)"
        case .alreadyActive:
            return "the terminal is already in use by another dashboard in this process; stop it first"
        case .loopAlreadyRunning:
            return "this screen loop is already running; call run(render:handleKey:) once at a time"
        }
    }
}
