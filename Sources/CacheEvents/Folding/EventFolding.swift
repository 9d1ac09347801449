/// A state built by folding events one at a time, from empty: what a replay rebuilds when it
/// seeks, and what the dashboard's `DashboardState` is.
///
/// A fold must depend only on the events applied and their order — never on the clock or on
/// anything outside — so that seeking to a time gives the same state as playing up to it.
/// ``SessionReplayer`` copies states at checkpoints, so a cheap copy (value types,
/// copy-on-write storage) keeps seeking fast.
///
/// ```swift
/// struct ErrorCount: EventFolding {
///     var errors = 0
///     init() {}
///     mutating func apply(_ event: CacheEvent) {
///         if case .error = event.kind { errors += 1 }
///     }
/// }
/// ```
public protocol EventFolding: Sendable {
    /// The state before any event.
    init()
    /// Adds one event's effect.
    mutating func apply(_ event: CacheEvent)
}

extension EventFolding {
    /// The state after applying `events` in order to an empty one.
    public init<Events: Sequence>(folding events: Events) where Events.Element == CacheEvent {
        self.init()
        for event in events { apply(event) }
    }
}
