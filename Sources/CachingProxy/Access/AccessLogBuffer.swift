import Synchronization

/// The access log's lines on their way to a slow writer (standard output): appended on the
/// event loops under a lock and taken in batches, so a busy proxy makes one write every few
/// milliseconds rather than one write, and one task wake-up, per request.
///
/// ```swift
/// let buffer = AccessLogBuffer()
/// // accessLog: { record in buffer.append(record.commonLogLine) }
/// let batch = buffer.take()          // every line waiting, each ending in "\n"
/// ```
///
/// Bounded: past ``capacity`` bytes waiting, lines are dropped and counted, and the next batch
/// says how many (a writer stuck on a blocked terminal must not grow the proxy's memory).
/// A `final class` with a `Mutex`: event-loop threads append, the writer's task takes.
public final class AccessLogBuffer: Sendable {
    private struct Waiting {
        var text = ""
        var dropped = 0
    }

    /// The most bytes that may wait. Default 16 MiB (about 100,000 lines).
    public let capacity: Int
    private let waiting = Mutex(Waiting())

    /// A buffer holding at most `capacity` bytes of lines.
    public init(capacity: Int = 16 << 20) {
        self.capacity = capacity
    }

    /// Adds one line (without its line break), or counts it as dropped when the buffer is full.
    public func append(_ line: String) {
        waiting.withLock { waiting in
            guard waiting.text.utf8.count + line.utf8.count < capacity else {
                waiting.dropped += 1
                return
            }
            waiting.text += line
            waiting.text += "\n"
        }
    }

    /// Every line waiting, each ending in a line break, in the order appended — followed by a
    /// line saying how many were dropped since the last batch, if any were; empty when nothing
    /// waits.
    public func take() -> String {
        let taken = waiting.withLock { waiting in
            defer { waiting = Waiting() }
            return waiting
        }
        guard taken.dropped > 0 else { return taken.text }
        return taken.text + "(\(taken.dropped) access-log lines dropped: standard output fell behind)\n"
    }
}
