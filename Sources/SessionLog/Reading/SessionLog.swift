public import CacheEvents
/// A loaded session: its header, its events in file order with times that never decrease,
/// an index for finding events by time and by request, and what the reader had to skip.
///
/// ```swift
/// let log = try SessionLogReader.load("capture.jsonl")
/// for warning in log.warnings { print(warning) }   // capture.jsonl:17: not JSON (…); line skipped
/// let firstMinute = log.events[..<log.position(atTime: 60)]
/// ```
public struct SessionLog: Sendable {
    /// The path the log was read from (empty for logs built in memory).
    public let file: String
    /// The header line.
    public let header: SessionLogHeader
    /// The events in file order; each `time` is at least the one before (see
    /// ``SessionLogWarning/timeWentBackwards(file:line:time:previous:)``).
    public let events: [CacheEvent]
    /// Problems worked around, in line order (at most ``SessionLogReader/maximumWarnings``).
    public let warnings: [SessionLogWarning]
    /// Warnings beyond ``SessionLogReader/maximumWarnings`` that were counted but not kept.
    public let suppressedWarnings: Int
    /// Lines that did not become events (bad lines and unknown kinds; blank lines excluded).
    public let skippedLines: Int
    /// Skipped lines of unknown kinds, by kind name.
    public let unknownKinds: [String: Int]
    /// Events whose time was raised to the time of the event before.
    public let clampedEvents: Int
    private let requests: RequestIndex

    /// A log of events built in memory (e.g. by a simulation); times are clamped so they
    /// never decrease.
    public init(header: SessionLogHeader, events: [CacheEvent], file: String = "") {
        var clamped = 0
        var events = events
        if !events.isEmpty {
            var latest = events[0].time
            for index in events.indices {
                if events[index].time < latest {
                    events[index].time = latest
                    clamped += 1
                } else {
                    latest = events[index].time
                }
            }
        }
        self.init(
            file: file, header: header, events: events, warnings: [], suppressedWarnings: 0, skippedLines: 0,
            unknownKinds: [:], clampedEvents: clamped)
    }

    init(
        file: String, header: SessionLogHeader, events: [CacheEvent], warnings: [SessionLogWarning],
        suppressedWarnings: Int, skippedLines: Int, unknownKinds: [String: Int], clampedEvents: Int
    ) {
        self.file = file
        self.header = header
        self.events = events
        self.warnings = warnings
        self.suppressedWarnings = suppressedWarnings
        self.skippedLines = skippedLines
        self.unknownKinds = unknownKinds
        self.clampedEvents = clampedEvents
        requests = RequestIndex(events)
    }

    // MARK: Time

    /// The first event's time (0 for an empty log).
    public var startTime: Double { events.first?.time ?? 0 }
    /// The last event's time (0 for an empty log).
    public var endTime: Double { events.last?.time ?? 0 }
    /// Seconds from the first event to the last.
    public var duration: Double { endTime - startTime }

    /// How many events happened at or before `time`: the index of the first later event.
    public func position(atTime time: Double) -> Int {
        events.upperBound(ofTime: time)
    }

    // MARK: Requests

    /// The IDs of every request with at least one event, in order of first appearance.
    public var requestIDs: [UInt64] { requests.order }

    /// The events of one request, in order (empty for an unknown ID).
    public func events(ofRequest id: UInt64) -> [CacheEvent] {
        requests.indices(of: id).map { events[$0] }
    }

    /// A one-line account of what was skipped, or `nil` when nothing was:
    /// `capture.jsonl: 3 of 1204 lines skipped (2 bad, 1 of unknown kinds)`.
    public var skippedSummary: String? {
        guard skippedLines > 0 || clampedEvents > 0 else { return nil }
        let unknown = unknownKinds.values.reduce(0, +)
        var parts: [String] = []
        if skippedLines > 0 {
            let total = events.count + skippedLines + 1
            parts.append("\(skippedLines) of \(total) lines skipped (\(skippedLines - unknown) bad, \(unknown) of unknown kinds)")
        }
        if clampedEvents > 0 { parts.append("\(clampedEvents) event times clamped") }
        return "\(file): " + parts.joined(separator: "; ")
    }
}

extension Array where Element == CacheEvent {
    /// The index of the first event later than `time` (events sorted by time).
    func upperBound(ofTime time: Double) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
