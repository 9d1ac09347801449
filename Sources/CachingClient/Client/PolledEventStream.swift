import CacheEvents

/// Turns a batch subscription into an `AsyncStream`, moving events across every few
/// milliseconds. Publishing then never wakes a watcher (a wake-up per event would cost the
/// request path a microsecond or two per event); a dashboard redraws at most 30 times a
/// second, so it loses nothing by receiving events in small bursts.
enum PolledEventStream {
    /// How often the batch buffer is emptied into the stream.
    static let interval = Duration.milliseconds(20)

    static func make(from batches: EventBatches, bufferSize: Int) -> AsyncStream<CacheEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: CacheEvent.self, bufferingPolicy: .bufferingOldest(max(1, bufferSize)))
        let poller = Task {
            var pendingDrops = 0
            while true {
                let finished = batches.isFinished
                for event in batches.take() {
                    if pendingDrops > 0 {
                        let marker = CacheEvent(seq: event.seq - 1, time: event.time, kind: .dropped(Dropped(count: pendingDrops)))
                        guard case .enqueued = continuation.yield(marker) else {
                            pendingDrops += 1
                            continue
                        }
                        pendingDrops = 0
                    }
                    if case .dropped = continuation.yield(event) { pendingDrops += 1 }
                }
                if finished || Task.isCancelled { break }
                try? await Task.sleep(for: interval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            poller.cancel()
            batches.finish()
        }
        return stream
    }
}
