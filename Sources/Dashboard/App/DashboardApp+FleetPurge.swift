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
            self.show(FleetPurgeReport(answers: await window.run(jobs)), as: "fleet purge", keys: Set(ordered.map(\.key.key)).count, redraw: redraw)
        }
    }

    /// Purges each key of `targets` in the dashboard's own cache, one after another, and shows
    /// one report for them all (``FleetPurgeReport``): each key's result on the status line in
    /// turn left only the last one there.
    func purgeLocally(_ targets: [PurgeTarget: Int], redraw: @escaping @Sendable () -> Void) {
        guard let commands else { return }
        let entries = targets.reduce(into: [String: Int]()) { $0[$1.key.key, default: 0] += $1.value }
        Task {
            var answers: [FleetPurgeReport.Answer] = []
            for (key, count) in entries.sorted(by: { $0.key < $1.key }) {
                let result: CommandResult
                do {
                    result = try await commands(.purge(key: key))
                } catch {
                    result = CommandResult(succeeded: false, message: "failed: \(error)")
                }
                answers.append(FleetPurgeReport.Answer(key: key, name: "", entries: count, result: result))
            }
            self.show(FleetPurgeReport(answers: answers), as: "purge", keys: entries.count, redraw: redraw)
        }
    }

    /// Logs a purge's report (as `label`) and puts it on the status line.
    private func show(_ report: FleetPurgeReport, as label: String, keys: Int, redraw: @Sendable () -> Void) {
        logger.info("\(label)", metadata: ["keys": "\(keys)", "ok": "\(report.succeeded)", "result": "\(report.message)"])
        core.withLock { $0.state.setStatus(report.message, kind: report.succeeded ? .success : .failure) }
        redraw()
    }
}
