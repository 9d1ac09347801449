import BenchmarkSupport
import Foundation

/// Time from starting `cachescope demo` in tmux to the first dashboard frame on the screen
/// (polling `capture-pane`), over five launches. Needs the binary: `CACHESCOPE_BINARY=…`.
enum FirstFrameBenchmark {
    static func run() -> Bool? {
        guard let binary = ProcessInfo.processInfo.environment["CACHESCOPE_BINARY"] else {
            print("SKIP first frame: set CACHESCOPE_BINARY to a built cachescope (release) to measure it")
            return nil
        }
        var times: [Double] = []
        for launch in 0..<5 {
            let socket = "csbench-\(getpid())-\(launch)"
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket).path
            defer {
                _ = tmux(["-L", socket, "kill-server"])
                try? FileManager.default.removeItem(atPath: directory)
            }
            let clock = ContinuousClock()
            let start = clock.now
            _ = tmux(["-u", "-f", "/dev/null", "-L", socket, "new-session", "-d", "-s", "bench", "-x", "120", "-y", "40",
                      "-e", "LANG=C.UTF-8", "--", binary, "demo", "--cache-dir", directory, "--log", directory + ".log"])
            var seen = false
            while clock.now - start < .seconds(10) {
                if tmux(["-u", "-L", socket, "capture-pane", "-p", "-t", "bench"]).contains("LIVE") {
                    seen = true
                    break
                }
                usleep(2000)
            }
            let elapsed = (clock.now - start).seconds
            print(String(format: "  launch %d: %@", launch + 1, seen ? BenchmarkSupport.Measurement.format(elapsed) : "no frame within 10 s"))
            if seen { times.append(elapsed) }
            try? FileManager.default.removeItem(atPath: directory + ".log")
        }
        guard !times.isEmpty else { return false }
        let median = times.sorted()[times.count / 2]
        let pass = median <= 0.3
        print("\(pass ? "PASS" : "FAIL") first frame: median \(BenchmarkSupport.Measurement.format(median)) ≤ 300 ms (tmux start and capture polling included)")
        return pass
    }

    private static func tmux(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
