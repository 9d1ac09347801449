public import CacheEvents
public import TrafficFilter
import Synchronization

/// Records every event of an ``EventBus`` to a session log (JSON Lines), so an app can
/// capture its own caching client and replay it later with `cachescope replay`.
///
/// ```swift
/// let recorder = try SessionRecorder(bus: client.events, path: "capture.jsonl")
/// // … the app runs …
/// let recording = try await recorder.close()
/// print(recording.summary.text)
/// ```
///
/// - **Lossless**: it subscribes with ``EventBus/subscribe(_:initial:)`` (taking batches with ``EventSubscription/take()``)
///   (a million-event buffer, the ``EventDelivery/recorder`` size), so it sees every event in
///   `seq` order; the bus still never waits for it.
/// - **Off the request path**: publishing only appends to that buffer (tens of nanoseconds).
///   The recorder's own thread takes the buffer every ``Configuration/pollInterval`` and
///   encodes and writes it with a hand-written encoder (several hundred thousand events a
///   second). A thread rather than a task, so a busy cooperative pool cannot delay flushes.
/// - **At most a second lost**: buffered lines reach the file at least every
///   ``Configuration/flushInterval`` (default 0.5 s) and on ``close()``; a killed process
///   loses at most the last second. ``close()`` also `fsync`s.
/// - **Redacted by default**: `Authorization`, `Proxy-Authorization`, `Cookie` and
///   `Set-Cookie` values are written as `[redacted]` unless
///   ``Configuration/redactsSensitiveHeaders`` is off (a library setting); the header line says
///   which.
public final class SessionRecorder: Sendable {
    /// How a recorder writes.
    public struct Configuration: Sendable {
        /// Replace sensitive header values with `[redacted]`. Default `true`.
        public var redactsSensitiveHeaders: Bool
        /// The longest time an event waits in memory before reaching the file. Default 0.5 s.
        public var flushInterval: Duration
        /// How often the recorder takes the events published since it last looked. Default 10 ms.
        public var pollInterval: Duration
        /// Events that may wait to be taken before the bus counts the excess as dropped.
        /// Default 1,000,000.
        public var bufferSize: Int
        /// What the header's `producer` says. Default `cachescope 0.1.0`.
        public var producer: String
        /// Record only whole requests that match (with every event that belongs to no request,
        /// see `RequestSelection`); `nil` records everything. Default `nil`.
        public var filter: Filter?

        /// A configuration; every parameter has the default stated on its property.
        public init(
            redactsSensitiveHeaders: Bool = true, flushInterval: Duration = .milliseconds(500),
            pollInterval: Duration = .milliseconds(10), bufferSize: Int = 1_000_000,
            producer: String = SessionLogHeader.defaultProducer, filter: Filter? = nil
        ) {
            self.filter = filter
            self.redactsSensitiveHeaders = redactsSensitiveHeaders
            self.flushInterval = flushInterval
            self.pollInterval = pollInterval
            self.bufferSize = bufferSize
            self.producer = producer
        }
    }

    /// The log's path.
    public let path: String
    /// The header written as the log's first line.
    public let header: SessionLogHeader
    private let sink: RecorderSink
    private let batches: EventSubscription
    private let writer: RecorderThread
    private let result = Mutex<SessionRecording?>(nil)

    /// Creates the log at `path` (replacing any file there) with mode 0600, writes its header
    /// and starts recording. `initial` events (e.g. the store's statistics and entries) are
    /// recorded first.
    /// - Throws: ``SessionLogError/cannotCreate(file:reason:)`` when the file cannot be created.
    public init(
        bus: EventBus, path: String, configuration: Configuration = Configuration(), initial: [CacheEventKind] = []
    ) throws(SessionLogError) {
        let header = SessionLogHeader(
            startedAt: bus.sessionStart, redacted: configuration.redactsSensitiveHeaders, producer: configuration.producer)
        let sink = try RecorderSink(path: path, header: header)
        let batches = bus.subscribe(.lossless(bufferSize: configuration.bufferSize), initial: initial)
        self.path = path
        self.header = header
        self.sink = sink
        self.batches = batches
        // A failed write is told as it happens (the dashboard shows it, a headless command
        // prints it), not only when the recording is closed.
        writer = RecorderThread(
            batches: batches, sink: sink, flushInterval: configuration.flushInterval, pollInterval: configuration.pollInterval,
            selection: configuration.filter.map { RequestSelection(filter: $0) },
            failed: { [weak bus] reason in
                bus?.publish(.error(ErrorInfo(
                    message: "the session log could not be written (\(reason)): recording stopped; the events before the failure are kept")))
            })
    }

    deinit {
        // Not closed: stop the subscription so the writer drains, flushes and lets go of the file.
        batches.finish()
    }

    /// Events recorded so far (encoded; on disk within a flush interval).
    public var eventsRecorded: Int { sink.eventsAppended }

    /// Stops recording: events published before this call are written, the file is flushed,
    /// synced and closed. Calling it again returns the same recording.
    /// - Throws: ``SessionLogError/writeFailed(file:reason:)`` if any write failed (the log
    ///   then holds the events before the failure).
    @discardableResult
    public func close() async throws(SessionLogError) -> SessionRecording {
        if let done = result.withLock({ $0 }) { return done }
        batches.finish()
        let summary = await writer.finished()
        try sink.close()
        let recording = SessionRecording(
            path: path, header: header, eventCount: sink.eventsAppended, byteCount: sink.bytesWritten, summary: summary)
        result.withLock { $0 = recording }
        return recording
    }
}

/// What a finished recording holds.
public struct SessionRecording: Sendable, Hashable {
    /// The log's path.
    public let path: String
    /// Its header.
    public let header: SessionLogHeader
    /// Events written.
    public let eventCount: Int
    /// Bytes written, header included.
    public let byteCount: Int
    /// The summary of the recorded events — equal to the one computed by replaying the log.
    public let summary: SessionSummary
}
