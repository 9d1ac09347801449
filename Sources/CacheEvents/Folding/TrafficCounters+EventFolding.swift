/// The header counters fold like any other state, so a replay can seek them.
extension TrafficCounters: EventFolding {}
