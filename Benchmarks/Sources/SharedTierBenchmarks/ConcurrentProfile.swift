import BenchmarkSupport
import CachingClient
import Foundation

/// `--concurrent URLS [TASKS]`: only the concurrent phase, for `perf record` and for the
/// throughput it reaches — the tier filled with URLS entries, then TASKS tasks (default 8, half
/// on each reader) ask for each once; prints hits a second and the process's CPU time a hit
/// (PostgreSQL's not included).
enum ConcurrentProfile {
    static func run(urls count: Int, tasks: Int) async throws {
        let fleet = try await Fleet.start()
        let urls = (0..<count).map { fleet.url("profile", $0) }
        try await fleet.fill(urls, expected: count)
        let wallStart = ProcessInfo.processInfo.systemUptime
        let usageStart = processCPUSeconds()
        let missed = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                let reader = fleet.readers[task % 2]
                let mine = stride(from: task, to: count, by: tasks).map { urls[$0] }
                group.addTask {
                    var missed = 0
                    for url in mine where try await reader.data(from: url).outcome != .hit { missed += 1 }
                    return missed
                }
            }
            return try await group.reduce(0, +)
        }
        let wall = ProcessInfo.processInfo.systemUptime - wallStart
        let cpu = processCPUSeconds() - usageStart
        print(String(
            format: "%d hits by %d tasks in %.2f s: %.0f hits/s, this process's CPU %.3f ms a hit; %d not hits",
            count, tasks, wall, Double(count) / wall, cpu / Double(count) * 1e3, missed))
        try await fleet.stop()
    }
}
