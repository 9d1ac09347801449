/// How many commands of one batch (a fleet purge of many marked keys) may be in flight at
/// once: at most ``perInstance`` at each instance and ``total`` in all. The rest wait for a
/// slot, so a purge of hundreds of keys does not open hundreds of requests on an instance's
/// attach socket at once (each would wait there behind the others, and time out together).
///
/// The results come back in the order of the jobs, whatever order they finished in.
///
/// ```swift
/// let results = await CommandWindow().run(jobs.map { job in
///     CommandWindow.Job(instance: job.instance) { await send(job.command, job.instance) }
/// })
/// ```
struct CommandWindow: Sendable {
    /// Commands in flight at one instance, at most: 8 by default.
    var perInstance = 8
    /// Commands in flight in all, at most: 32 by default.
    var total = 32

    /// One command: the instance it goes to and the work that sends it and returns its answer.
    struct Job<Result: Sendable>: Sendable {
        var instance: UInt16
        var work: @Sendable () async -> Result
    }

    /// Runs every job within the window; returns their results in the order of `jobs`.
    func run<Result: Sendable>(_ jobs: [Job<Result>]) async -> [Result] {
        let perInstance = max(1, perInstance)
        let total = max(1, total)
        // Jobs waiting, per instance, in their order; instances taken in turn (round robin)
        // so that one instance with many keys does not hold every slot of the total.
        var waiting: [UInt16: ArraySlice<Int>] = [:]
        var instances: [UInt16] = []
        for (position, job) in jobs.enumerated() {
            if waiting[job.instance] == nil { instances.append(job.instance) }
            waiting[job.instance, default: []].append(position)
        }
        var inFlight: [UInt16: Int] = [:]
        var running = 0
        var results: [Result?] = Array(repeating: nil, count: jobs.count)
        await withTaskGroup(of: (Int, Result).self) { group in
            repeat {
                var started = true
                while started, running < total {
                    started = false
                    for instance in instances where running < total && inFlight[instance, default: 0] < perInstance {
                        guard let position = waiting[instance]?.first else { continue }
                        waiting[instance]?.removeFirst()
                        inFlight[instance, default: 0] += 1
                        running += 1
                        started = true
                        let work = jobs[position].work
                        group.addTask { (position, await work()) }
                    }
                }
                guard let (position, result) = await group.next() else { break }
                results[position] = result
                inFlight[jobs[position].instance, default: 1] -= 1
                running -= 1
            } while running > 0 || waiting.values.contains { !$0.isEmpty }
        }
        return results.compactMap { $0 }
    }
}
