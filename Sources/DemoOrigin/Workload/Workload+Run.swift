// MARK: - Sending at a steady rate

extension Workload {
    /// Sends the request sequence through `send`, starting one request every
    /// `1 / requestsPerSecond` seconds, with at most `concurrency` sends in flight.
    ///
    /// Pacing sleeps on `ContinuousClock` until each start time (no busy loop). Start times
    /// are absolute, so sleep overshoot does not accumulate; when the workload falls more than
    /// 250 ms behind (the concurrency limit was reached, or the machine stalled) it resumes from
    /// now instead of bursting to catch up. It stops when the configured duration has passed
    /// (no request starts at or after the end) or when the calling task is cancelled, and
    /// returns once the sends in flight have finished; on cancellation they are cancelled too.
    ///
    /// - Parameter send: performs one request; called concurrently, so it must be `Sendable`.
    public func run(send: @escaping @Sendable (WorkloadRequest) async -> Void) async {
        let clock = ContinuousClock()
        let interval = Duration.seconds(1 / configuration.requestsPerSecond)
        let maximumLag = Duration.milliseconds(250)
        let start = clock.now
        let end = configuration.duration.map { start + $0 }
        let limit = configuration.concurrency
        var requests = makeIterator()

        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0  // started and not yet reaped with next(): an upper bound
            var startTime = start
            while !Task.isCancelled {
                if let end, startTime >= end { break }
                do {
                    try await clock.sleep(until: startTime)
                } catch {
                    break  // cancelled
                }
                if inFlight >= limit {
                    await group.next()
                    inFlight -= 1
                }
                // Behind schedule (waiting for a slot, or a stall), start times lag the clock:
                // the end is judged by the clock itself.
                if let end, clock.now >= end { break }
                guard !Task.isCancelled, let request = requests.next() else { break }
                group.addTask { await send(request) }
                inFlight += 1

                startTime += interval
                let now = clock.now
                if now - startTime > maximumLag { startTime = now }
            }
        }
    }
}
