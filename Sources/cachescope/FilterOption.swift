import ArgumentParser
import CacheScopeApp
import TrafficFilter

/// `--filter EXPR`, shared by `demo`, `replay` and `export`: the filter language of the
/// dashboard's `f` (docs/filter.md).
struct FilterOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Only requests matching this filter expression, e.g. 'outcome:miss & status>=500' (see docs/filter.md).",
        valueName: "EXPR"))
    var filter: String?

    /// The compiled filter, `nil` without `--filter`.
    /// - Throws: `ValidationError` (status 64) naming the column and what was expected there.
    func parsed() throws -> Filter? {
        guard let filter else { return nil }
        do {
            return try Filter(filter)
        } catch {
            throw ValidationError("--filter '\(filter)': \(error)")
        }
    }

    /// Says on standard error when `filter` gave up a pattern that took too long on some text
    /// (``Filter/gaveUp``): what was left out then was not decided by the filter.
    static func reportGiveUp(_ filter: Filter?) {
        guard let filter, filter.gaveUp else { return }
        Console.warn("--filter '\(filter.text)': \(filter.gaveUpMessage)")
    }
}
