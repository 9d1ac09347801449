/// How many commands of one batch (a fleet purge of many marked keys) may be in flight at
/// once: at most ``perInstance`` at each instance and ``total`` in all. The rest wait for a
/// slot, so a purge of hundreds of keys does not open hundreds of requests on an instance's
/// attach socket at once (each would wait there behind the others, and time out together).
///
/// The results come back in the order of the jobs, whatever order they finished in.
///
/// **Turns.** The instances take slots in turn: a free slot goes to the next instance after
/// the one served last that has a job waiting and a slot of its own free. So when the total
/// is the limit (more instances than `total / perInstance`), every instance keeps commands in
/// flight, and none waits for the first ones to finish all of theirs.
///
/// **Giving up on an instance.** A job's work throws when its instance could not answer
/// (the send timed out, the connection closed, the instance is gone); an answer, even a
/// failure, is returned. Once a job of an instance throws, the jobs of that instance still
/// waiting are not sent: each is answered at once by its ``Job/failed`` with the same error.
/// An instance that hangs but stays connected thus costs one send timeout (30 s), not one
/// per `perInstance` of its keys. Its jobs already in flight run to their own end.
///
/// ```swift
/// let results = await CommandWindow().run(jobs.map { job in
///     CommandWindow.Job(instance: job.instance, failed: { error in "failed: \(error)" }) {
///         try await send(job.command, job.instance).message
///     }
/// })
/// ```
struct CommandWindow: Sendable {
    /// Commands in flight at one instance, at most: 8 by default.
    var perInstance = 8
    /// Commands in flight in all, at most: 32 by default.
    var total = 32

    /// One command: the instance it goes to, the work that sends it and returns its answer,
    /// and the answer when the instance could not give one.
    struct Job<Result: Sendable>: Sendable {
        /// The instance the command goes to.
        var instance: UInt16
        /// Sends the command and returns its answer; throws when the instance could not
        /// answer, which gives up on the instance's jobs still waiting.
        var work: @Sendable () async throws -> Result
        /// This job's answer when its work threw `error`, or when it was not sent because
        /// another job of its instance threw `error`.
        var failed: @Sendable (_ error: any Error) -> Result

        /// A job for `instance`.
        init(
            instance: UInt16, failed: @escaping @Sendable (_ error: any Error) -> Result,
            work: @escaping @Sendable () async throws -> Result
        ) {
            self.instance = instance
            self.work = work
            self.failed = failed
        }
    }

    /// Runs every job within the window; returns their results in the order of `jobs`.
    func run<Result: Sendable>(_ jobs: [Job<Result>]) async -> [Result] {
        var schedule = Schedule(instances: jobs.map(\.instance), perInstance: max(1, perInstance), total: max(1, total))
        var results: [Result?] = Array(repeating: nil, count: jobs.count)
        await withTaskGroup(of: (Int, Swift.Result<Result, any Error>).self) { group in
            while true {
                while let position = schedule.next() {
                    let work = jobs[position].work
                    group.addTask {
                        do { return (position, .success(try await work())) } catch { return (position, .failure(error)) }
                    }
                }
                // Nothing in flight means nothing waits either: `next()` starts a job whenever a slot is free.
                guard let (position, outcome) = await group.next() else { break }
                schedule.finished(position)
                switch outcome {
                case .success(let result):
                    results[position] = result
                case .failure(let error):
                    results[position] = jobs[position].failed(error)
                    for skipped in schedule.giveUp(on: jobs[position].instance) { results[skipped] = jobs[skipped].failed(error) }
                }
            }
        }
        return results.compactMap { $0 }
    }
}

// MARK: - Schedule

extension CommandWindow {
    /// The window's bookkeeping: the jobs waiting at each instance, the commands in flight,
    /// and whose turn is next. Jobs are named by their position in the batch.
    private struct Schedule {
        let perInstance: Int
        let total: Int
        /// Each job's instance, by position.
        private let instanceOf: [UInt16]
        /// The instances in the order of their first job: the order the turns go round in.
        private var instances: [UInt16] = []
        /// The positions of the jobs not started yet, per instance, in their order.
        private var waiting: [UInt16: ArraySlice<Int>] = [:]
        private var inFlight: [UInt16: Int] = [:]
        private var running = 0
        /// The index in `instances` where the search for the next slot starts: just after the
        /// instance served last. Rescanning from the first instance each time instead would
        /// hand every freed slot back to the first instances and starve the last ones.
        private var turn = 0

        init(instances instanceOf: [UInt16], perInstance: Int, total: Int) {
            self.instanceOf = instanceOf
            self.perInstance = perInstance
            self.total = total
            for (position, instance) in instanceOf.enumerated() {
                if waiting[instance] == nil { instances.append(instance) }
                waiting[instance, default: []].append(position)
            }
        }

        /// The next job to start, counted as in flight; `nil` when no slot is free for any job waiting.
        mutating func next() -> Int? {
            guard running < total else { return nil }
            for step in instances.indices {
                let index = (turn + step) % instances.count
                let instance = instances[index]
                guard inFlight[instance, default: 0] < perInstance, let position = waiting[instance]?.popFirst() else { continue }
                inFlight[instance, default: 0] += 1
                running += 1
                turn = (index + 1) % instances.count
                return position
            }
            return nil
        }

        /// The job at `position` is done: its slot is free.
        mutating func finished(_ position: Int) {
            inFlight[instanceOf[position], default: 1] -= 1
            running -= 1
        }

        /// Stops sending to `instance`: returns its jobs still waiting, which are not started.
        mutating func giveUp(on instance: UInt16) -> ArraySlice<Int> {
            defer { waiting[instance] = [] }
            return waiting[instance] ?? []
        }
    }
}
