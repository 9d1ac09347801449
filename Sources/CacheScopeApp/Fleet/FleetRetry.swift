/// How `cachescope attach S1 S2 …` tries again to reach an instance that is gone or was not
/// there at the start: after `initial`, then twice as long each time, at most `maximum`.
public struct FleetRetry: Sendable, Hashable {
    /// The first wait: 0.25 s by default.
    public var initial: Duration
    /// The longest wait: 5 s by default.
    public var maximum: Duration

    /// Backoff from `initial` doubling up to `maximum`.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait after `wait`.
    func next(after wait: Duration) -> Duration { min(wait * 2, maximum) }
}
