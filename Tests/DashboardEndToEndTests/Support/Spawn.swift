import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting processes for the end-to-end tests with `posix_spawn`, not `Foundation.Process`:
///
/// - The child gets an **empty signal mask** and default signal actions. Test code runs on
///   worker threads that block signals, and a child inherits its spawning thread's mask; a tmux
///   server started that way can never be told to stop, and neither can the program in its pane.
/// - Output goes to a **file**, never a pipe: `tmux new-session` leaves a server running that
///   would inherit the pipe and keep a reader waiting for end-of-file forever.
enum Spawn {
    /// A started process.
    struct Child {
        let pid: pid_t
        let outputPath: String

        /// Waits (polling, so a hung child cannot hang the test) until it exits or `timeout`
        /// passes, then kills it; returns its exit status (128 + signal when killed) and output.
        func wait(timeout: Duration) async -> (status: Int32, output: String) {
            let deadline = ContinuousClock.now + timeout
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if ContinuousClock.now >= deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                try? await Task.sleep(for: .milliseconds(20))
            }
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: outputPath)
            return (Self.exitStatus(status), output)
        }

        /// Waits without a timeout for a short command (tmux's own commands return at once).
        func waitNow() -> (status: Int32, output: String) {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: outputPath)
            return (Self.exitStatus(status), output)
        }

        private static func exitStatus(_ status: Int32) -> Int32 {
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }

    /// The test process's environment without `NO_COLOR` (which would turn every dashboard
    /// mono and hide `--theme`), as the children get it.
    static let environment: [String] = ProcessInfo.processInfo.environment
        .filter { $0.key != "NO_COLOR" }.map { "\($0.key)=\($0.value)" }.sorted()

    /// Starts `arguments[0]` (looked up in `PATH`) with stdin from /dev/null and stdout and
    /// stderr to `outputPath` (or `errorPath` for stderr when given).
    static func start(_ arguments: [String], outputPath: String? = nil, errorPath: String? = nil) throws -> Child {
        let output = outputPath ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("cse2e-out-\(UUID().uuidString)").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errorPath {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGPIPE, SIGUSR1, SIGUSR2, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(command: arguments.joined(separator: " "), code: result) }
        return Child(pid: pid, outputPath: output)
    }

    struct SpawnError: Error, CustomStringConvertible {
        let command: String
        let code: Int32
        var description: String { "cannot start \(command): \(String(cString: strerror(code)))" }
    }
}
