import CacheEvents
import Logging
import Synchronization

extension DashboardApp {
    /// In a fleet: purges each key in each instance of `targets` (all at once), and shows one
    /// report for them all (``FleetPurgeReport``). Instances that are gone are not told, and
    /// the report names them.
    func purge(_ targets: [PurgeTarget: Int], redraw: @escaping @Sendable () -> Void) {
        guard let instanceCommands else { return }
        let roster = core.withLock { $0.state.interface.instances }
        // Keys in order, then instances: the report lists failures in that order.
        let ordered = targets.sorted { ($0.key.key, $0.key.instance) < ($1.key.key, $1.key.instance) }
        let logger = self.logger
        Task {
            let answers = await withTaskGroup(of: (Int, FleetPurgeReport.Answer).self) { group in
                for (position, (target, entries)) in ordered.enumerated() {
                    let name = roster[target.instance]?.name ?? "#\(target.instance)"
                    guard roster[target.instance]?.connected ?? false else {
                        group.addTask { (position, FleetPurgeReport.Answer(key: target.key, name: name, entries: entries, result: nil)) }
                        continue
                    }
                    group.addTask {
                        let result: CommandResult
                        do {
                            result = try await instanceCommands(.purge(key: target.key), target.instance)
                        } catch {
                            result = CommandResult(succeeded: false, message: "failed: \(error)")
                        }
                        return (position, FleetPurgeReport.Answer(key: target.key, name: name, entries: entries, result: result))
                    }
                }
                var answers: [(Int, FleetPurgeReport.Answer)] = []
                for await answer in group { answers.append(answer) }
                return answers.sorted { $0.0 < $1.0 }.map(\.1)
            }
            let report = FleetPurgeReport(answers: answers)
            logger.info("fleet purge", metadata: [
                "keys": "\(Set(ordered.map(\.key.key)).count)", "ok": "\(report.succeeded)", "result": "\(report.message)",
            ])
            self.core.withLock { $0.state.setStatus(report.message, kind: report.succeeded ? .success : .failure) }
            redraw()
        }
    }
}
