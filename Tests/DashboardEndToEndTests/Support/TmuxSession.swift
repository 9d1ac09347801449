import Foundation
import Testing

/// A program running in its own tmux server (unique `-L` socket) and session, so tests can
/// read the screen as a user sees it (`capture-pane -p`) and type keys (`send-keys`).
///
/// The pane stays after the program exits (`remain-on-exit`), so the restored screen can be
/// read; the program runs under `sh`, which writes its exit status to a file (tmux itself does
/// not always record a pane's status when the program closes the terminal just before it
/// exits). ``close()`` kills the server; `deinit` does too, so every path out of a test cleans up.
final class TmuxSession {
    let socket: String
    let name: String
    private let configuration: String
    private let statusFile: String
    private var closed = false

    /// Starts `command` (binary and arguments) in a `width`×`height` pane.
    init(_ command: [String], width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws {
        guard Self.isAvailable else { throw TmuxError.notInstalled }
        let unique = UUID().uuidString.prefix(8).lowercased()
        socket = "cse2e-\(getpid())-\(unique)"
        name = "cs-\(unique)"
        configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf").path
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status").path
        // A config of our own: nothing from the user's ~/.tmux.conf, and the pane outlives the program.
        try "set -g remain-on-exit on\nset -g default-terminal screen-256color\nset -g history-limit 100\n"
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        var arguments = ["-u", "-f", configuration, "-L", socket, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"]
        var variables = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        variables.merge(environment) { _, new in new }
        for (key, value) in variables.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += ["--", "sh", "-c", "\"$0\" \"$@\"; echo $? > '\(statusFile)'"] + command
        let result = try Self.tmux(arguments)
        guard result.status == 0 else { throw TmuxError.failed(arguments.joined(separator: " "), result.output) }
    }

    deinit { close() }

    /// Kills the tmux server (and with it the program, if still running).
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? Self.tmux(["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: configuration)
        try? FileManager.default.removeItem(atPath: statusFile)
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
    }

    // MARK: Reading

    /// The visible screen, one line per row (trailing spaces trimmed by tmux).
    func screen() -> String {
        (try? Self.tmux(["-u", "-L", socket, "capture-pane", "-p", "-t", name]).output) ?? ""
    }

    /// The screen and up to 100 lines scrolled off above it, wrapped lines joined: what a
    /// program wrote before it exited, however the pane scrolled.
    func history() -> String {
        (try? Self.tmux(["-u", "-L", socket, "capture-pane", "-p", "-J", "-S", "-100", "-t", name]).output) ?? ""
    }

    /// A tmux format value for the pane (`#{pane_dead}`, `#{alternate_on}`, …).
    func value(_ format: String) -> String {
        ((try? Self.tmux(["-L", socket, "display-message", "-p", "-t", name, format]).output) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The program's exit status (128 + signal number when a signal ended it), once it has exited.
    var exitStatus: Int32? {
        (try? String(contentsOfFile: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    /// Whether the alternate screen (where curses draws) is on.
    var alternateScreen: Bool { value("#{alternate_on}") == "1" }
    /// The program's process ID (the child of the pane's `sh`).
    var pid: Int32? {
        guard let shell = Int32(value("#{pane_pid}")),
            let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    // MARK: Typing

    /// Types text literally (`"2"`, `"d"`, `"/max"`).
    func type(_ text: String) {
        _ = try? Self.tmux(["-L", socket, "send-keys", "-t", name, "-l", text])
    }

    /// Pastes `text` as a terminal paste: between the bracketed-paste markers when the program
    /// asked for them (as a terminal emulator does), as plain keys otherwise.
    func paste(_ text: String) {
        _ = try? Self.tmux(["-L", socket, "set-buffer", "-b", "cachescope-paste", text])
        _ = try? Self.tmux(["-L", socket, "paste-buffer", "-p", "-d", "-b", "cachescope-paste", "-t", name])
    }

    /// Presses named keys (`Enter`, `Escape`, `Down`, `Tab`).
    func press(_ keys: String...) {
        _ = try? Self.tmux(["-L", socket, "send-keys", "-t", name] + keys)
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) {
        _ = try? Self.tmux(["-L", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    // MARK: Waiting

    /// Polls the screen until `condition` holds (every 50 ms, at most `timeout`); returns the
    /// last screen and whether it held. Generous timeouts, no fixed sleeps: a loaded 2-core CI
    /// machine is slow but gets there.
    @discardableResult
    func waitFor(_ timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async -> (screen: String, ok: Bool) {
        let deadline = ContinuousClock.now + timeout
        var last = screen()
        while !condition(last) {
            guard ContinuousClock.now < deadline else { return (last, false) }
            try? await Task.sleep(for: .milliseconds(50))
            last = screen()
        }
        return (last, true)
    }

    /// Waits until the program has exited and returns its exit status.
    func waitForExit(_ timeout: Duration = .seconds(30)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return exitStatus
    }

    // MARK: Running tmux

    enum TmuxError: Error, CustomStringConvertible {
        case failed(String, String)
        case notInstalled
        var description: String {
            switch self {
            case .failed(let command, let output): "tmux \(command) failed: \(output)"
            case .notInstalled: "tmux is not installed (apt-get install tmux); the terminal tests need it"
            }
        }
    }

    static func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Spawn.start(["tmux"] + arguments).waitNow()
    }

    /// Whether tmux is installed.
    static var isAvailable: Bool { (try? tmux(["-V"]).status) == 0 }
}

extension TmuxSession {
    /// `cachescope demo` in a new session, with its store and log in `directory` and `extra`
    /// arguments after those.
    static func demo(
        _ extra: [String] = [], directory: TemporaryDirectory, width: Int = 120, height: Int = 40,
        environment: [String: String] = [:]
    ) throws -> TmuxSession {
        let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
        return try TmuxSession(
            [binary, "demo", "--cache-dir", directory.path("store"), "--log", directory.path("demo.log")] + extra,
            width: width, height: height, environment: environment)
    }

    /// `cachescope demo --publish --rate 5` in tmux and the attach socket its status line
    /// announces; fails the test if none is announced within a minute.
    static func publishingDemo(directory: TemporaryDirectory, width: Int = 120) async throws -> (TmuxSession, socket: String) {
        let app = try demo(["--publish", "--rate", "5"], directory: directory, width: width)
        let published = await app.waitFor(.seconds(60)) { Screen.statusLine($0).contains("publishing on ") }
        let line = Screen.statusLine(published.screen)
        guard published.ok, let announced = line.range(of: "publishing on ") else {
            app.close()
            throw SocketNotAnnounced(screen: published.screen)
        }
        return (app, String(line[announced.upperBound...]).trimmingCharacters(in: .whitespaces))
    }

    /// The demo never said where it publishes.
    struct SocketNotAnnounced: Error, CustomStringConvertible {
        let screen: String
        var description: String { "no attach socket announced on the status line:\n\(screen)" }
    }

    /// Waits (up to a minute) for the dashboard to be up, by default showing LIVE, and returns
    /// its screen; fails the test, showing the screen, if it never is.
    func waitForDashboard(
        _ ready: (String) -> Bool = { $0.contains("LIVE") }, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let screen = await waitFor(.seconds(60), ready)
        try #require(screen.ok, "no dashboard:\n\(screen.screen)", sourceLocation: sourceLocation)
        return screen.screen
    }
}
