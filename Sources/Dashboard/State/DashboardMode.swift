import CacheEvents
public import SessionLog

/// Where the dashboard's events come from, which decides what the header says and whether
/// commands can be sent.
///
/// ```swift
/// DashboardMode.live                       // header: LIVE
/// DashboardMode.attached(process: "myapp") // header: ATTACHED myapp
/// ```
public enum DashboardMode: Sendable, Hashable {
    /// An in-process caching client (`cachescope demo`): commands go straight to it.
    case live
    /// Another process, watched through its attach socket; commands go over the socket.
    case attached(process: String)
    /// A recorded session played back; there is no origin to send commands to.
    case replay(ReplayStatus)

    /// Whether purge, refresh and reload can reach a cache (not in a replay).
    public var canSendCommands: Bool {
        if case .replay = self { return false }
        return true
    }

    /// Whether this is a replay.
    public var isReplay: Bool { !canSendCommands }
}

/// Where a replay stands, as the header shows it: `REPLAY 2× 1:05/4:00 PLAYING`.
public struct ReplayStatus: Sendable, Hashable {
    /// The playback speed.
    public var speed: ReplaySpeed
    /// The playhead in seconds from the session's first event.
    public var position: Double
    /// Seconds from the session's first event to its last.
    public var length: Double
    /// Whether it is playing (else paused).
    public var isPlaying: Bool
    /// Events applied so far.
    public var eventsApplied: Int
    /// Events in the session.
    public var eventCount: Int

    /// Creates a status; every parameter defaults to an empty, paused replay at 1×.
    public init(
        speed: ReplaySpeed = .realTime, position: Double = 0, length: Double = 0, isPlaying: Bool = false,
        eventsApplied: Int = 0, eventCount: Int = 0
    ) {
        self.speed = speed
        self.position = position
        self.length = length
        self.isPlaying = isPlaying
        self.eventsApplied = eventsApplied
        self.eventCount = eventCount
    }
}
