public import TrafficFilter
import Synchronization

extension DashboardApp {
    /// Starts the views filtered by `filter` (`--filter`), as if it had been typed at `f`:
    /// the header shows it, `Esc` clears it and it is the first entry of the prompt's history.
    public func setFilter(_ filter: Filter?) {
        core.withLock { core in
            core.state.interface.filter = filter
            if let filter { core.state.interface.history.add(filter.text) }
        }
    }
}

extension DashboardApp {
    /// Disables every command that changes the cache (`--read-only`): purge, refresh and
    /// reload are refused on the status line, and the footer and the help say so.
    public func setReadOnly(_ readOnly: Bool) {
        core.withLock { $0.state.interface.readOnly = readOnly }
    }
}
