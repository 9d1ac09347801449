import BenchmarkSupport
import CacheEvents
import SessionLog
import Foundation

// SessionLogBenchmarks [EVENTS] [PART…]: the session-log targets (release builds only):
//   recording cost ≤ 1 µs per event on the request path, recorder ≥ 100,000 events/s,
//   load + index of 1,000,000 events ≤ 2 s and ≤ 300 MB peak RSS,
//   replay ≥ 1,000,000 events/s into TrafficCounters, seek < 200 ms anywhere;
//   issue #15: a filtered replay summary ≥ 500,000 events/s, a what-if ≤ 10 s per million events.
// PARTs (recording, load, replay, summary, what-if) run only those; the log is always written.
// `SessionLogBenchmarks load-child FILE` is the child process the load benchmark starts.

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "load-child" {
    LoadBenchmarks.runChild(path: arguments[2])
    exit(0)
}

#if DEBUG
print("note: a debug build; the targets are for release builds (swift run -c release SessionLogBenchmarks)")
#endif

let eventCount = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let parts = Set(arguments.dropFirst().filter { Int($0) == nil })
func wanted(_ part: String) -> Bool { parts.isEmpty || parts.contains(part) }
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionlog-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

var results: [Bool] = []
if wanted("recording") { results += try await RecordingBenchmarks.run(directory: directory) }

let logPath = directory + "/synthetic.jsonl"
let writeSeconds = try LoadBenchmarks.writeLog(events: eventCount, to: logPath)
let size = (try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
print("info generated \(eventCount) events (\(size / 1_048_576) MiB, \(size / max(eventCount, 1)) bytes/event) in \(String(format: "%.2f", writeSeconds)) s")
if wanted("load") {
    results += try LoadBenchmarks.loadInChild(path: logPath, events: eventCount)
    _ = try LoadBenchmarks.jsonDecoderRate(path: logPath, lines: min(eventCount, 100_000))
}
if wanted("replay") { results += try ReplayBenchmarks.run(path: logPath) }
if wanted("summary") { results += try await AnalysisBenchmarks.filteredSummary(path: logPath, events: eventCount, runs: 5) }
if wanted("what-if") { results += try await AnalysisBenchmarks.whatIf(path: logPath, events: eventCount, runs: 5) }

try? FileManager.default.removeItem(atPath: directory)
let failures = results.filter { !$0 }.count
print(failures == 0 ? "ALL PASS (\(results.count) checks)" : "\(failures) of \(results.count) checks FAILED")
exit(failures == 0 ? 0 : 1)
