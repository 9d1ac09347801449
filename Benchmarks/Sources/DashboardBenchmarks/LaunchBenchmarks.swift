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

    /// The dashboard open after its traffic has ended (`--duration 1`): CPU over 10 s; target < 2 %.
    static func idleCPU() -> Bool? {
        guard let binary else {
            print("SKIP idle CPU: set CACHESCOPE_BINARY to a built cachescope (release) to measure it")
            return nil
        }
        let session = TmuxRun(binary: binary, arguments: ["demo", "--duration", "1"], tag: "idle")
        defer { session.close() }
        session.start()
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(30), !session.screen().contains("the workload finished") { usleep(50_000) }
        sleep(2)
        guard let pid = session.programPID, let before = cpuSeconds(pid) else {
            print("FAIL idle CPU: the dashboard did not start")
            return false
        }
        let measured = clock.now
        sleep(10)
        guard let after = cpuSeconds(pid) else { return false }
        let share = (after - before) / (clock.now - measured).seconds
        let pass = share < 0.02
        print(String(format: "%@ idle CPU: %.2f %% of a core over 10 s (< 2 %%)", pass ? "PASS" : "FAIL", share * 100))
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
    let socket: String
    let directory: String

    init(binary: String, arguments: [String], tag: String) {
        self.binary = binary
        self.arguments = arguments
        socket = "csbench-\(getpid())-\(tag)"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket).path
    }

    func start() {
        _ = tmux(["-u", "-f", "/dev/null", "-L", socket, "new-session", "-d", "-s", "bench", "-x", "120", "-y", "40",
                  "-e", "LANG=C.UTF-8", "--", binary] + arguments + ["--cache-dir", directory, "--log", directory + ".log"])
    }

    func screen() -> String { tmux(["-u", "-L", socket, "capture-pane", "-p", "-t", "bench"]) }

    var programPID: Int32? {
        Int32(tmux(["-L", socket, "display-message", "-p", "-t", "bench", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func close() {
        _ = tmux(["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: directory + ".log")
    }

    private func tmux(_ arguments: [String]) -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        guard let handle = try? FileHandle(forWritingTo: output) else { return "" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        process.waitUntilExit()
        try? handle.close()
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
