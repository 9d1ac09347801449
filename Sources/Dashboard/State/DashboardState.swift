public import CacheEvents
import SessionLog

/// The dashboard's whole state: the traffic folded from events, the frozen copy shown while
/// the display is paused, and the interface (view, selection, sort, search, marks, status).
///
/// It is an ``EventFolding`` state: events change only ``traffic``; keys change the rest
/// (see `DashboardKeys`). Layout reads it and draws; it never changes it.
///
/// ```swift
/// var state = DashboardState(mode: .live)
/// for event in events { state.apply(event) }
/// let effects = DashboardKeys.handle(.character("2"), state: &state)   // Entries view
/// let grid = DashboardLayout.render(state, size: TerminalSize(columns: 120, rows: 40), theme: theme, now: 12)
/// ```
public struct DashboardState: EventFolding {
    /// The traffic, always current (collection goes on while the display is paused).
    public internal(set) var traffic = TrafficModel()
    /// The traffic as it was when the display was paused (`Space`), or `nil` when live.
    public internal(set) var frozen: TrafficModel?
    /// While rewound (`←` `→` when frozen): the instant shown, in session seconds; `nil` when
    /// showing the moment of the freeze, or live.
    public internal(set) var rewoundTo: Double?
    /// When `Space` froze the display (session seconds); `nil` while live. A rewind keeps it
    /// (``rewoundTo`` then names the instant shown) until `F` resumes.
    var frozenAt: Double?
    /// Everything that is not traffic.
    public var interface: InterfaceState

    /// An empty live dashboard.
    public init() {
        interface = InterfaceState()
    }

    /// An empty dashboard in `mode`.
    public init(mode: DashboardMode) {
        interface = InterfaceState(mode: mode)
    }

    /// The traffic the screen shows: the frozen copy while paused, else the current one.
    public var shown: TrafficModel { frozen ?? traffic }

    /// Session seconds at which the filter reads TTLs and ages: the paused display's instant,
    /// else the latest frame's "now".
    var now: Double { isPaused ? frozenClock : interface.now }

    /// The instant a paused display shows: where it was rewound to, else when it was frozen
    /// (not the last event's time, which on an idle client is long before: the ages and TTLs
    /// would step back when `Space` is pressed).
    var frozenClock: Double { rewoundTo ?? frozenAt ?? shown.clock }

    /// Whether the display is paused.
    public var isPaused: Bool { frozen != nil }

    /// Adds one event (also while paused: only the display stands still).
    public mutating func apply(_ event: CacheEvent) {
        traffic.apply(event)
    }

    /// Puts a message on the status line.
    public mutating func setStatus(_ text: String, kind: StatusMessage.Kind = .info) {
        interface.status = StatusMessage(text, kind: kind)
    }

    /// Names a fleet's instances and records which are connected: rows that arrive from now
    /// on carry their instance's name (the instance column, `instance:NAME`).
    /// An instance whose connection dropped since the last roster ends its life: its open
    /// requests are cut off once the events before the drop are folded.
    public mutating func setInstances(_ roster: InstanceRoster) {
        let ended = interface.instances.livesEnded(in: roster)
        interface.instances = roster
        traffic.nameInstances(roster.isFleet ? roster.names : [])
        for end in ended { traffic.endLife(of: end.instance, after: end.afterSeq) }
    }

    /// Shows a command's result on the status line.
    public mutating func show(_ result: CommandResult) {
        setStatus(result.message, kind: result.succeeded ? .success : .failure)
    }

    /// Freezes the display on the current traffic, at this moment.
    mutating func pause() {
        frozen = traffic
        frozenAt = max(traffic.clock, interface.now)
    }

    /// Lets the display follow the traffic again.
    mutating func resume() {
        frozen = nil
        frozenAt = nil
        rewoundTo = nil
    }

    /// Shows `traffic` as it was at `instant` (session seconds), frozen.
    mutating func showRewound(_ traffic: TrafficModel, at instant: Double) {
        frozen = traffic
        rewoundTo = instant
    }
}
