import CacheEvents
import Logging
import Synchronization

extension DashboardApp {
    /// In a fleet: purges each key in each instance of `targets`, at most
    /// ``CommandWindow/perInstance`` commands in flight at an instance (and
    /// ``CommandWindow/total`` in all), and shows one report for them all
    /// (``FleetPurgeReport``), in the order of the keys, then the instances. Instances that are
    /// gone are not told, and the report names them. Once a send to an instance fails without
    /// an answer (it timed out, or the instance went), its keys not sent yet fail at once with
    /// the same reason instead of each waiting out its own timeout.
    func purge(_ targets: [PurgeTarget: Int], window: CommandWindow = CommandWindow(), redraw: @escaping @Sendable () -> Void) {
        guard let instanceCommands else { return }
        let roster = core.withLock { $0.state.interface.instances }
        // Keys in order, then instances: the report lists failures in that order.
        let ordered = targets.sorted { ($0.key.key, $0.key.instance) < ($1.key.key, $1.key.instance) }
        let logger = self.logger
        Task {
            // A gone instance is not told: its answer is known without a command.
            let jobs = ordered.map { target, entries in
                let name = roster[target.instance]?.name ?? "#\(target.instance)"
                let connected = roster[target.instance]?.connected ?? false
                // A send that throws (timed out, connection closed, gone since) gives up on the
                // instance: its keys still waiting get the same failure at once, unsent.
                let failed = { @Sendable (error: any Error) in
                    FleetPurgeReport.Answer(
                        key: target.key, name: name, entries: entries, result: CommandResult(succeeded: false, message: "failed: \(error)"))
                }
                return CommandWindow.Job(instance: target.instance, failed: failed) {
                    guard connected else { return FleetPurgeReport.Answer(key: target.key, name: name, entries: entries, result: nil) }
                    let result = try await instanceCommands(.purge(key: target.key), target.instance)
                    return FleetPurgeReport.Answer(key: target.key, name: name, entries: entries, result: result)
                }
            }
            let report = FleetPurgeReport(answers: await window.run(jobs))
            logger.info("fleet purge", metadata: [
                "keys": "\(Set(ordered.map(\.key.key)).count)", "ok": "\(report.succeeded)", "result": "\(report.message)",
            ])
            self.core.withLock { $0.state.setStatus(report.message, kind: report.succeeded ? .success : .failure) }
            redraw()
        }
    }
}
