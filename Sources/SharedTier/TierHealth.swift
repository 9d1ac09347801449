import Synchronization

/// Whether the database is worth asking now, and when an outage starts (and is due a warning)
/// or ends.
///
/// While it works, every operation goes to it. The first failure starts an outage (the one
/// moment a warning is due); during an outage operations skip the tier at once — a miss —
/// except one probe per backoff interval (1 s, doubling up to the configured maximum). The
/// probe's success ends the outage.
final class TierHealth: Sendable {
    private struct State {
        var failing = false
        var nextProbe: ContinuousClock.Instant?
        var backoff: Duration
        /// The outages warned of within the last ``repeatedWarningQuiet``: when, by reason
        /// (pruned as each outage starts, so it holds at most the reasons of the last minute).
        var warned: [String: ContinuousClock.Instant] = [:]
        /// Whether the outage under way was warned of: only its end is then reported.
        var warnedThisOutage = false
    }

    private static let initialBackoff = Duration.seconds(1)
    /// How long an outage for the reason last warned of goes without a warning of its own.
    static let repeatedWarningQuiet = Duration.seconds(60)
    private let maximumBackoff: Duration
    private let state = Mutex(State(backoff: TierHealth.initialBackoff))

    init(maximumBackoff: Duration) {
        self.maximumBackoff = max(maximumBackoff, Self.initialBackoff)
    }

    /// Whether to ask the database now: always while it works; during an outage, only the
    /// first caller after the backoff (the others skip it until that probe has answered).
    func mayTry(probeTimeout: Duration) -> Bool {
        state.withLock { state in
            guard state.failing else { return true }
            let now = ContinuousClock.now
            guard let next = state.nextProbe, next <= now else { return false }
            state.nextProbe = now + probeTimeout + state.backoff
            return true
        }
    }

    /// Records a failure for `reason`; `true` when it starts an outage that is due a warning.
    ///
    /// Not one for a reason already warned of within ``repeatedWarningQuiet``: when some
    /// statements fail every time while the others work (a table dropped, a disk full: writes
    /// fail, lookups succeed), each success ends the outage and the next write starts another,
    /// a second later — one warning a minute for each reason then, not one a second.
    func failed(because reason: String) -> Bool {
        state.withLock { state in
            let starts = !state.failing
            if starts { state.backoff = Self.initialBackoff } else { state.backoff = min(state.backoff * 2, maximumBackoff) }
            state.failing = true
            let now = ContinuousClock.now
            state.nextProbe = now + state.backoff
            guard starts else { return false }
            state.warned = state.warned.filter { now - $0.value < Self.repeatedWarningQuiet }
            state.warnedThisOutage = state.warned[reason] == nil
            if state.warnedThisOutage { state.warned[reason] = now }
            return state.warnedThisOutage
        }
    }

    /// Records a success; `true` when it ends an outage that was warned of (one that was not
    /// ends as quietly as it began).
    func succeeded() -> Bool {
        state.withLock { state in
            guard state.failing else { return false }
            defer { state.warnedThisOutage = false }
            state.failing = false
            state.nextProbe = nil
            state.backoff = Self.initialBackoff
            return state.warnedThisOutage
        }
    }

    /// Whether an outage is going on.
    var isFailing: Bool { state.withLock { $0.failing } }
}
