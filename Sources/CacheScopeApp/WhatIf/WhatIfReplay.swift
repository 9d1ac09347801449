import CacheEvents
import CacheStore
import CachingClient
import Foundation
import HTTPCaching
import SessionLog

/// `cachescope replay FILE --what-if KEY=VALUE…`: runs the origin's recorded answers through
/// a real ``CachingClient`` configured as the recording's cache with ``WhatIfChanges`` applied,
/// in simulated time, and compares the result with the recording.
///
/// - A **session log**: the recorded run is the log itself. The simulated cache starts as the
///   log's: the capacities of its first `storeStats` (a disk tier only if something was stored
///   on disk), each request's recorded policy, `private`
///   mode unless `shared` is given (a log does not say which mode its cache had). Logs must
///   carry the origin's 304 header fields (recorded since they were added to `notModified`).
/// - A **HAR capture**: both runs are simulations, the recorded one with the configuration
///   `replay FILE.har` uses.
///
/// ```swift
/// let report = try await WhatIfReplay.run(input, changes: try WhatIfChanges(parsing: ["min-ttl=5m"]))
/// print(report.text)
/// ```
public enum WhatIfReplay {
    /// Runs the what-if for `input`. `shared`: the recorded cache was a shared one (`--shared`).
    /// - Throws: ``WhatIfError`` (a log too old to simulate), `SessionLogError`, `HARError`,
    ///   or the store's errors for the simulated cache's temporary disk tier.
    public static func run(_ input: InputPath, changes: WhatIfChanges, shared: Bool = false) async throws -> WhatIfReport {
        var baseline = HARSimulator.configuration
        var notes: [String] = []
        var session: RecordedSession
        let recordedEvents: [CacheEvent]
        if ReplaySource.isHAR(input) {
            let (exchanges, start) = HARSimulator.exchanges(try HARReader.load(input.path))
            session = RecordedSession(exchanges: exchanges, start: start)
            baseline.mode = shared ? .shared : .private
            let recorded = try await simulate(session, configuration: baseline)
            recordedEvents = recorded.events
            session.outcomes = recorded.outcomes
            // Captured requests neither run can send: noted, and not compared.
            let leftOut = recorded.outcomes.filter { $0 == nil }.count
            if leftOut > 0 {
                notes.append("\(SessionSummary.grouped(leftOut)) captured requests left out of both runs: their URL or method cannot be sent (`replay FILE --summary` names them)")
            }
            let oversized = SimulatedExchange.countedSmaller(exchanges, outcomes: recorded.outcomes).count
            if oversized > 0 {
                notes.append("\(SessionSummary.grouped(oversized)) captured bodies are larger than the \(SessionSummary.grouped(RecordedResponse.largestPlaceholder)) bytes a simulation stands in for, and are counted as that in both runs (`replay FILE --summary` names them)")
            }
        } else {
            let log = try SessionLogReader.load(input.path)
            session = try RecordedSession(log, name: input.path)
            recordedEvents = log.events
            baseline = CachingClientConfiguration()
            baseline.statsInterval = .seconds(3600)
            baseline.mode = shared ? .shared : .private
            if let stats = session.store {
                baseline.store = StoreConfiguration(
                    memoryCapacity: stats.memoryCapacity, diskCapacity: session.hadDiskTier ? stats.diskCapacity : 0)
            } else {
                baseline.store.diskCapacity = 0
                notes.append("the log records no store capacities; the recorded cache is taken to be CacheScope's default (32 MiB in memory)")
            }
            if log.skippedLines > 0 {
                notes.append(
                    log.skippedLines == 1
                        ? "1 line of the log was skipped (unreadable, or of a kind this version does not know), so the request it belongs to may compare wrongly (`replay FILE --summary` names it)"
                        : "\(SessionSummary.grouped(log.skippedLines)) lines of the log were skipped (unreadable, or of kinds this version does not know), so the requests they belong to may compare wrongly (`replay FILE --summary` lists them)")
            }
            let unfinished = session.outcomes.filter { $0 == nil }.count
            if unfinished > 0 {
                notes.append(
                    unfinished == 1
                        ? "1 recorded request has no end in the log (it ends before the answer, or the line was skipped) and is not compared"
                        : "\(SessionSummary.grouped(unfinished)) recorded requests have no end in the log (it ends before their answers, or the lines were skipped) and are not compared")
            }
            if session.commands > 0 {
                notes.append("\(SessionSummary.grouped(session.commands)) commands (purges, refreshes) in the log are not repeated in the what-if run")
            }
        }
        var configuration = baseline
        changes.apply(to: &configuration)
        // A request without a recorded outcome (left out, or unfinished) is not compared, and
        // not run again either: the what-if column counts the requests the recorded one does.
        var changed = session
        let compared = session.outcomes.indices.filter { session.outcomes[$0] != nil }
        changed.exchanges = compared.map { session.exchanges[$0] }
        changed.outcomes = compared.map { session.outcomes[$0] }
        if changes.policy != nil {
            // One policy for every request: the client's default, instead of each one's own.
            for index in changed.exchanges.indices { changed.exchanges[index].policy = nil }
        }
        let simulated = try await simulate(changed, configuration: configuration)
        let changedRequests = zip(changed.outcomes, simulated.outcomes).filter { recorded, whatIf in
            recorded.map { $0 != (whatIf ?? .error) } ?? false
        }.count
        return WhatIfReport(
            file: input.path, changes: changes, recorded: WhatIfRun(folding: recordedEvents), whatIf: WhatIfRun(folding: simulated.events),
            changedRequests: changedRequests, comparedRequests: compared.count,
            changedURLs: ChangedURL.ranking(
                urls: changed.exchanges.map(\.url), recorded: changed.outcomes, simulated: simulated.outcomes, limit: 10),
            notes: notes)
    }

    /// Runs the session through a client made from `configuration`, with a temporary directory
    /// for its disk tier when it has one (removed afterwards).
    private static func simulate(_ session: RecordedSession, configuration: CachingClientConfiguration) async throws -> CacheSimulation.Result {
        var configuration = configuration
        var directory: URL?
        if configuration.store.diskCapacity > 0 {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-what-if-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            configuration.store.directory = temporary
            directory = temporary
        }
        defer { if let directory { try? FileManager.default.removeItem(at: directory) } }
        return try await CacheSimulation.run(session.exchanges, start: session.start, configuration: configuration)
    }
}
