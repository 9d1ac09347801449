public import Dashboard
public import TerminalUI

extension FleetAttach {
    /// The dashboard over this fleet: the merged events, an instance column, a line per
    /// instance in the Stats view, and commands sent to the instances they concern. Instances
    /// that go, come back or start a new life update the roster and say so on the status line.
    ///
    /// - Parameters:
    ///   - status: The first status-line message (a theme or log problem wins over the default,
    ///     which names the instances reached).
    ///   - rewindEvents: How many recent events `←` `→` can rewind through.
    public func dashboard(theme: Theme, status: StatusMessage?, rewindEvents: Int) -> DashboardApp {
        let roster = self.roster
        let reached = roster.instances.filter(\.connected).map(\.name)
        let missing = roster.instances.filter { !$0.connected }.map(\.path)
        var opening = "attached to \(reached.count) of \(roster.instances.count) instances: \(reached.joined(separator: ", "))"
        if !missing.isEmpty { opening += "; not reachable yet (retrying): \(missing.joined(separator: ", "))" }
        let app = DashboardApp.fleet(
            roster: roster, events: events, commands: { [self] command, instance in try await send(command, to: instance) },
            theme: theme, status: status ?? StatusMessage(opening, kind: missing.isEmpty ? .info : .failure),
            rewindEvents: rewindEvents)
        onChange { roster, notice in
            // The sentence first: whoever sees the roster change also sees why.
            app.setStatus(notice.text, kind: notice.statusKind)
            app.setInstances(roster)
        }
        // A change between reading the roster above and installing the handler is not lost.
        app.setInstances(self.roster)
        return app
    }
}
