import Foundation

/// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): unlike wall time it
/// does not grow while the thread waits for a core, so figures stay meaningful on a machine
/// that is busy with other work.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The 1-minute load average, to print beside wall-clock figures.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
}

/// Median per-operation wall and thread-CPU seconds of `body` over `samples` batches.
func measureBoth(samples: Int, iterations: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    let clock = ContinuousClock()
    var walls: [Double] = []
    var cpus: [Double] = []
    for sample in 0..<(samples + 3) {
        let start = clock.now
        let cpuStart = threadCPUSeconds()
        for _ in 0..<iterations { body() }
        let cpu = threadCPUSeconds() - cpuStart
        let wall = (clock.now - start).seconds
        if sample >= 3 {
            walls.append(wall / Double(iterations))
            cpus.append(cpu / Double(iterations))
        }
    }
    return (walls.sorted()[walls.count / 2], cpus.sorted()[cpus.count / 2])
}
