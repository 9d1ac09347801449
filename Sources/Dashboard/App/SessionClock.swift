/// "Now" in session seconds for a live or attached dashboard, so TTLs count down between
/// events.
///
/// Event times are seconds since the *watched* session started, which for an attached process
/// began before this dashboard did. The clock learns the offset from the events themselves: at
/// each event, session time ≥ event time, so `now = wall + max(event.time − wall at arrival)`.
/// Delivery delay only makes it lag by that delay; it never runs ahead of the events.
struct SessionClock: Sendable, Hashable {
    /// The largest `event.time − wall` seen, or `nil` before the first event.
    private var offset: Double?

    /// Learns from an event with `time` that arrived at `wall` seconds (the dashboard's own clock).
    mutating func observe(eventTime time: Double, wall: Double) {
        offset = max(offset ?? -.infinity, time - wall)
    }

    /// Session seconds at `wall` (before any event: the dashboard's own uptime).
    func now(wall: Double) -> Double {
        wall + (offset ?? 0)
    }
}
