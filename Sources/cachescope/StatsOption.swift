import ArgumentParser
import Dashboard

/// `--stats-every SECONDS`, shared by `demo --no-ui`, `attach --no-ui` and `replay --summary`:
/// with `--json`, the header's figures as one JSON object per interval of session time
/// (docs/cli.md lists the fields).
struct StatsOption: ParsableArguments {
    @Option(
        name: .customLong("stats-every"), parsing: .unconditional,  // so that `-1` is a value to refuse, not a missing one
        help: ArgumentHelp(
            "With --json: write the dashboard header's figures as one JSON object (a line) every S seconds of session time.",
            valueName: "S"))
    var statsEvery: Double?

    /// The checked interval, `nil` without `--stats-every`.
    /// - Parameters:
    ///   - json: whether `--json` was given.
    ///   - jsonNeedsInterval: whether `--json` means nothing without `--stats-every` (`demo`, `attach`).
    ///   - headless: whether the command runs without a dashboard; `requirement` names what makes it so.
    /// - Throws: `ValidationError` (status 64) saying what to add or change.
    func interval(json: Bool, jsonNeedsInterval: Bool, headless: Bool, requirement: String) throws -> Double? {
        guard let statsEvery else {
            if json, jsonNeedsInterval {
                throw ValidationError("--json goes with --stats-every SECONDS (one JSON object per interval), e.g. --stats-every 5 --json")
            }
            return nil
        }
        do { _ = try StatsIntervals(every: statsEvery) } catch { throw ValidationError("\(error)") }
        guard json else { throw ValidationError("--stats-every writes JSON lines: add --json") }
        guard headless else { throw ValidationError("--stats-every goes with \(requirement)") }
        return statsEvery
    }
}
