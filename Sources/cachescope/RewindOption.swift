import ArgumentParser
import Dashboard

/// `--rewind-events N`, shared by the commands whose dashboard watches live traffic (`demo`,
/// `proxy`, `attach`): how many recent events `←` `→` can rewind through.
struct RewindOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Keep this many recent events for rewinding the live dashboard (← → while frozen); 0 turns rewinding off.",
        valueName: "N"))
    var rewindEvents = RewindHistory.defaultCapacity

    /// Refuses a negative count.
    func validate() throws {
        if rewindEvents < 0 { throw ValidationError("--rewind-events must be 0 or more, not \(rewindEvents)") }
    }
}
