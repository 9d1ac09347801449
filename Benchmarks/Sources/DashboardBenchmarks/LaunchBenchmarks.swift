import BenchmarkSupport
import Foundation

/// The real binary in tmux (set `CACHESCOPE_BINARY` to a release build): the time from
/// starting `cachescope demo` to its first frame on the screen, and the CPU it uses idle.
enum LaunchBenchmarks {
    static var binary: String? { ProcessInfo.processInfo.environment["CACHESCOPE_BINARY"] }

    /// Five launches, polling `capture-pane` every 2 ms; target: median ≤ 300 ms.
    static func firstFrame() -> Bool? {
        guard let binary else {
            print("SKIP first frame: set CACHESCOPE_BINARY to a built cachescope (release) to measure it")
            return nil
        }
        var times: [Double] = []
        for launch in 0..<5 {
            let session = TmuxRun(binary: binary, arguments: ["demo"], tag: "ff\(launch)")
            defer { session.close() }
            let clock = ContinuousClock()
            let start = clock.now
            session.start()
            var seen = false
            while clock.now - start < .seconds(10) {
                if session.screen().contains("LIVE") {
                    seen = true
                    break
                }
                usleep(2000)
            }
            let elapsed = (clock.now - start).seconds
            print("  launch \(launch + 1): " + (seen ? BenchmarkSupport.Measurement.format(elapsed) : "no frame within 10 s"))
            if seen { times.append(elapsed) }
        }
        guard !times.isEmpty else { return false }
        let median = times.sorted()[times.count / 2]
        let pass = median <= 0.3
        print("\(pass ? "PASS" : "FAIL") first frame: median \(BenchmarkSupport.Measurement.format(median)) ≤ 300 ms "
            + "(from starting tmux to the frame on its screen)")
        return pass
    }

    /// Idle, nothing spent: `cachescope demo --publish` after its traffic has ended (the app,
    /// with its own dashboard repainting once a second) and `cachescope attach` on it, their
    /// CPU over the same 60 s read from `/proc/PID/stat`; target ≤ 0.5 % of one core each.
    static func idleCPU() -> Bool? {
        guard let binary else {
            print("SKIP idle CPU: set CACHESCOPE_BINARY to a built cachescope (release) to measure it")
            return nil
        }
        let app = TmuxRun(binary: binary, arguments: ["demo", "--duration", "1", "--publish"], tag: "idle")
        defer { app.close() }
        app.start()
        let clock = ContinuousClock()
        let start = clock.now
        // The status line says where it publishes, until the workload's end replaces it.
        var screen = ""
        var socket: String?
        while clock.now - start < .seconds(30) {
            screen = app.screen()
            if socket == nil, let announced = screen.range(of: "publishing on ") {
                socket = String(screen[announced.upperBound...].prefix { !$0.isWhitespace && $0 != ";" })
            }
            if screen.contains("the workload finished") { break }
            usleep(20_000)
        }
        guard let socket else {
            print("FAIL idle CPU: the app did not announce its attach socket:\n\(screen)")
            return false
        }
        let watcher = TmuxRun(binary: binary, arguments: ["attach", socket], tag: "idle-attach", storeOptions: false)
        defer { watcher.close() }
        watcher.start()
        while clock.now - start < .seconds(40), !watcher.screen().contains("ATTACHED") { usleep(50_000) }
        sleep(2)
        guard let appPID = app.programPID, let watcherPID = watcher.programPID,
              let appBefore = cpuSeconds(appPID), let watcherBefore = cpuSeconds(watcherPID)
        else {
            print("FAIL idle CPU: the app or the attached dashboard did not start")
            return false
        }
        let measured = clock.now
        sleep(60)
        guard let appAfter = cpuSeconds(appPID), let watcherAfter = cpuSeconds(watcherPID) else { return false }
        let seconds = (clock.now - measured).seconds
        var pass = true
        for (name, used) in [("app (demo --publish, its dashboard open)", appAfter - appBefore), ("attach", watcherAfter - watcherBefore)] {
            let share = used / seconds
            pass = pass && share <= 0.005
            print(String(format: "%@ idle CPU of %@: %.2f %% of a core over %.0f s (≤ 0.5 %%)", share <= 0.005 ? "PASS" : "FAIL", name, share * 100, seconds))
        }
        return pass
    }

    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// `cachescope` in its own tmux server. tmux runs with output to a file, never a pipe (the
/// server it starts would inherit a pipe and keep a reader waiting forever).
struct TmuxRun {
    let binary: String
    let arguments: [String]
    let storeOptions: Bool
    let socket: String
    let directory: String

    /// `storeOptions`: pass `--cache-dir` and `--log` in a scratch directory (only `demo` has
    /// a store; `attach` gets `--log` alone).
    init(binary: String, arguments: [String], tag: String, storeOptions: Bool = true) {
        self.binary = binary
        self.storeOptions = storeOptions
        self.arguments = arguments
        socket = "csbench-\(getpid())-\(tag)"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket).path
    }

    func start() {
        _ = tmux(["-u", "-f", "/dev/null", "-L", socket, "new-session", "-d", "-s", "bench", "-x", "120", "-y", "40",
                  "-e", "LANG=C.UTF-8", "--", binary] + arguments + (storeOptions ? ["--cache-dir", directory] : []) + ["--log", directory + ".log"])
    }

    func screen() -> String { tmux(["-u", "-L", socket, "capture-pane", "-p", "-t", "bench"]) }

    var programPID: Int32? {
        Int32(tmux(["-L", socket, "display-message", "-p", "-t", "bench", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func close() {
        _ = tmux(["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")   // tmux leaves its socket file behind
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: directory + ".log")
    }

    /// Runs tmux with `posix_spawn` and `waitpid` (not `Foundation.Process`, whose exit
    /// notification does not always arrive here), its output going to a file.
    private func tmux(_ arguments: [String]) -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ) == 0 else { return "" }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
