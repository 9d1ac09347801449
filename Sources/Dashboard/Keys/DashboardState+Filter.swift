import TerminalUI
import TrafficFilter

/// The view filter: `f` opens the prompt (with the active filter to edit), `Enter` applies a
/// text that parses (a blank one clears), `Esc` in the views clears the filter.
extension DashboardState {
    /// `f`.
    mutating func startFilter() {
        guard interface.overlay == nil else {
            setStatus("close this pane first (Esc), then f filters the rows")
            return
        }
        interface.prompt = FilterPrompt(.filter, text: interface.filter?.text ?? "")
        interface.status = nil
    }

    /// A key while the filter or search prompt is open. Nothing is applied while the text
    /// does not parse: the prompt shows the error and its column.
    mutating func editPrompt(_ key: Key) -> [DashboardEffect] {
        guard var prompt = interface.prompt else { return [] }
        let before = prompt.text
        let outcome = prompt.edit(key, history: interface.history)
        interface.prompt = prompt
        switch outcome {
        case .editing:
            if prompt.purpose == .search, prompt.text != before { searchAsTyped(prompt) }
        case .refused:
            break   // the prompt stays open and shows the error
        case .submitted(let filter):
            interface.prompt = nil
            // The history is of filter expressions, which `f` and `/` share; a command line is not one.
            if prompt.purpose != .purge { interface.history.add(prompt.text) }
            switch prompt.purpose {
            case .filter: apply(filter)
            case .search: finishSearch(filter)
            case .purge: return askPurge(matching: filter)
            }
        case .cancelled:
            interface.prompt = nil
            if prompt.purpose == .search { cancelSearch() }
            interface.status = nil
        }
        return [.redraw]
    }

    /// Makes `filter` the view filter (`nil` clears it) and says how many rows it keeps.
    mutating func apply(_ filter: Filter?) {
        interface.filter = filter
        interface.entryTop = 0
        guard let filter else {
            setStatus("filter cleared")
            return
        }
        let requests = RequestRows(log: shown.requests, filter: filter).count
        let entries = EntryWindow(table: shown.entries, interface: interface, rows: 1, now: now).rows.count
        setStatus("filter \(filter.text): \(Format.count(requests)) of \(Format.count(shown.requests.count)) request rows, "
            + "\(Format.count(entries)) of \(Format.count(shown.entries.count)) entries (Esc clears, f edits)")
    }

    /// Says on the status line, once for each, when the filter or the search gave up a `~`
    /// pattern that took too long on some row (``Filter/gaveUp``): rows it had not decided are
    /// shown as not matching. Returns whether it said so (the frame is then drawn again).
    mutating func reportFilterGiveUp() -> Bool {
        for filter in [interface.filter, interface.search.filter].compactMap({ $0 }) where filter.gaveUp {
            guard interface.reportedGiveUp != filter.text else { continue }
            interface.reportedGiveUp = filter.text
            setStatus("\(filter.text): \(filter.gaveUpMessage)", kind: .failure)
            return true
        }
        return false
    }
}
