import ArgumentParser
import Dashboard

/// `--rewind-events N`, shared by the commands whose dashboard watches live traffic (`demo`,
/// `proxy`, `attach`): how many recent events `←` `→` can rewind through.
struct RewindOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Keep this many recent events for rewinding the live dashboard (← → while frozen); 0 turns rewinding off.",
        valueName: "N"))
    var rewindEvents = RewindHistory.defaultCapacity

    /// Refuses a negative count, and one past ``RewindHistory/maximumCapacity`` (the memory it
    /// could take). Called by the commands' own checks (as `validate()`, ArgumentParser would
    /// report it in its own several-line form).
    func check() throws {
        if rewindEvents < 0 { throw ValidationError("--rewind-events must be 0 or more, not \(rewindEvents)") }
        if rewindEvents > RewindHistory.maximumCapacity {
            throw ValidationError(
                "--rewind-events keeps at most \(RewindHistory.maximumCapacity) events (about 1.3 GB of memory), not \(rewindEvents)")
        }
    }
}
