public import CacheEvents
/// Writes a session log directly, without a bus: for events that already exist (a
/// simulation's, a converted capture's, a test's). Lines go through the same fast encoder
/// and buffered writes as ``SessionRecorder``'s.
///
/// ```swift
/// let writer = try SessionLogWriter(path: "sim.jsonl", header: SessionLogHeader(startedAt: start, redacted: true))
/// for event in events { writer.write(event) }
/// try writer.close()
/// ```
///
/// Not for concurrent use: one owner writes, then closes.
public final class SessionLogWriter {
    private let sink: RecorderSink

    /// Creates (or replaces) the file at `path` with mode 0600 and writes `header` as its first line.
    /// Sensitive header values are redacted when `header.redacted` is true.
    /// - Throws: ``SessionLogError/cannotCreate(file:reason:)``.
    public init(path: String, header: SessionLogHeader) throws(SessionLogError) {
        sink = try RecorderSink(path: path, header: header)
    }

    deinit {
        // Not closed: still get the buffered lines to the file.
        try? sink.close()
    }

    /// Appends one event. Its `time` should be within ``CacheEvent/possibleTimes`` (a billion
    /// seconds either side of `startedAt`): readers skip a line beyond, with a warning — keep a
    /// converted capture's offsets from a start near its first request.
    public func write(_ event: CacheEvent) {
        if sink.append(event) { sink.flush() }
    }

    /// Appends events in order.
    public func write<Events: Sequence>(contentsOf events: Events) where Events.Element == CacheEvent {
        for event in events { write(event) }
    }

    /// Events written so far.
    public var eventCount: Int { sink.eventsAppended }

    /// Flushes, syncs and closes the file; idempotent.
    /// - Throws: ``SessionLogError/writeFailed(file:reason:)`` if any write failed.
    public func close() throws(SessionLogError) {
        try sink.close()
    }
}
