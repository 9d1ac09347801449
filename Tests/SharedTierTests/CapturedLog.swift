import Logging
import Synchronization

/// A `Logger` whose lines are kept, for tests that check what an operator's log would say.
final class CapturedLog: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "tests") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        lines.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
