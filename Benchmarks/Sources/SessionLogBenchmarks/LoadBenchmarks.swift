import BenchmarkSupport
import CacheEvents
import SessionLog
import Foundation

/// Loading: the hand-written parser against `JSONDecoder`, and load + index of a whole log in
/// a fresh process so its peak memory is the reader's alone.
enum LoadBenchmarks {
    /// Writes `count` synthetic events to `path` and returns the seconds it took.
    static func writeLog(events count: Int, to path: String) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let header = SessionLogHeader(startedAt: Date(timeIntervalSince1970: 1_763_802_843), redacted: true)
        let writer = try SessionLogWriter(path: path, header: header)
        var workload = SyntheticWorkload()
        workload.generate(events: count) { writer.write($0) }
        try writer.close()
        return (clock.now - start).seconds
    }

    /// Loads `path` in a child process (this executable, `load-child`) and checks its figures.
    static func loadInChild(path: String, events: Int) throws -> [Bool] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["load-child", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").compactMap { line -> (String, Double)? in
            let parts = line.split(separator: "=")
            guard parts.count == 2, let value = Double(parts[1]) else { return nil }
            return (String(parts[0]), value)
        })
        guard let seconds = fields["seconds"], let peak = fields["peakBytes"], let loaded = fields["events"] else {
            print("FAIL load child printed: \(output)")
            return [false]
        }
        let scaled = Double(events) / 1_000_000
        let timeOK = seconds <= 2.0 * scaled
        let memoryOK = peak <= 300 * 1_048_576 * max(scaled, 1)
        print("\(timeOK ? "PASS" : "FAIL") load + index \(Int(loaded)) events: \(String(format: "%.2f", seconds)) s ≤ \(String(format: "%.1f", 2.0 * scaled)) s "
            + "(\(String(format: "%.0f", loaded / seconds)) events/s; \(String(format: "%.2f", fields["cpuSeconds"] ?? 0)) s CPU on all cores; load average \(loadAverage()))")
        print("\(memoryOK ? "PASS" : "FAIL") load + index peak RSS: \(String(format: "%.0f", peak / 1_048_576)) MiB ≤ 300 MiB")
        return [timeOK, memoryOK, Int(loaded) == events]
    }

    /// The child's work: load, index, print figures as `name=value` lines.
    static func runChild(path: String) {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = processCPUSeconds()
        do {
            let log = try SessionLogReader.load(path)
            let seconds = (clock.now - start).seconds
            print("seconds=\(seconds)")
            print("cpuSeconds=\(processCPUSeconds() - cpuStart)")
            print("events=\(log.events.count)")
            print("requests=\(log.requestIDs.count)")
            print("warnings=\(log.warnings.count)")
            print("peakBytes=\(peakResidentMemoryBytes())")
        } catch {
            print("error=\(error)")
        }
    }

    /// Per-line decoding speed of `JSONDecoder` on the first `lines` event lines, for the docs.
    static func jsonDecoderRate(path: String, lines: Int) throws -> Double {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let sample = text.split(separator: "\n", maxSplits: lines + 1).dropFirst().prefix(lines).map { Data($0.utf8) }
        let decoder = JSONDecoder()
        let clock = ContinuousClock()
        let start = clock.now
        var decoded = 0
        for line in sample where (try? decoder.decode(CacheEvent.self, from: line)) != nil { decoded += 1 }
        let seconds = (clock.now - start).seconds
        let rate = Double(decoded) / seconds
        print("info JSONDecoder per line: \(String(format: "%.0f", rate)) events/s (\(decoded) lines in \(String(format: "%.2f", seconds)) s)"
            + " → \(String(format: "%.1f", 1_000_000 / rate)) s per million")
        return rate
    }
}
