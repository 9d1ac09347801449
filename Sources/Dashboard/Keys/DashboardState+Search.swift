import TerminalUI
import TrafficFilter

/// The search: `/` opens the prompt, each key that leaves a valid expression moves to the
/// first match, `Enter` keeps it for `n` / `N`, `Esc` goes back to where the search started.
extension DashboardState {
    /// `/`.
    mutating func startSearch() {
        guard interface.overlay == nil else {
            setStatus("close this pane first (Esc), then / searches the rows")
            return
        }
        guard interface.view != .stats else {
            setStatus("search works in the Requests (1) and Entries (2) views")
            return
        }
        interface.prompt = FilterPrompt(.search)
        interface.search = SearchState()
        interface.search.savedRequestSelection = .some(interface.requestSelection)
        interface.search.savedEntrySelection = .some(interface.entrySelection)
        interface.status = nil
    }

    /// A search prompt's text changed: go back to where the search started and find the
    /// first match of the text if it parses.
    mutating func searchAsTyped(_ prompt: FilterPrompt) {
        restoreSearchOrigin()
        interface.search.filter = prompt.filter
        if prompt.filter != nil { findMatch(forward: true, includingCurrent: true) }
    }

    /// `Enter` in the search prompt.
    mutating func finishSearch(_ filter: Filter?) {
        interface.search.filter = filter
        guard let filter else {
            interface.status = nil
            return
        }
        if selectionMatches(filter) {
            setStatus("search \(filter.text): n next, N previous, Esc clears")
        } else {
            setStatus("no match for \(filter.text)", kind: .failure)
        }
    }

    /// `Esc` in the search prompt.
    mutating func cancelSearch() {
        restoreSearchOrigin()
        interface.search = SearchState()
    }

    /// Whether the selected row matches `filter`.
    private func selectionMatches(_ filter: Filter) -> Bool {
        switch selectedTarget {
        case .request(let serial): shown.requests[serial: serial].map(filter.matches) ?? false
        case .entry(let id): shown.entries[id].map { filter.matches(EntryRow($0, now: now)) } ?? false
        case nil: false
        }
    }

    private mutating func restoreSearchOrigin() {
        if let saved = interface.search.savedRequestSelection {
            interface.requestSelection = saved
            interface.requestTop = nil
        }
        if let saved = interface.search.savedEntrySelection { interface.entrySelection = saved }
    }

    /// Selects the next (`forward`: older / further down) row that matches the search,
    /// wrapping around; `includingCurrent` lets the selected row itself match.
    mutating func findMatch(forward: Bool, includingCurrent: Bool) {
        guard let filter = interface.search.filter else {
            setStatus("no search: press / to search")
            return
        }
        let rows = ScreenGeometry(interface.screen).listRows
        let found: Bool
        switch interface.view {
        case .requests: found = findRequest(filter, forward: forward, includingCurrent: includingCurrent, rows: rows)
        case .entries: found = findEntry(filter, forward: forward, includingCurrent: includingCurrent, rows: rows)
        case .stats: found = false
        }
        if found {
            if interface.prompt == nil { interface.status = nil }
        } else {
            setStatus("no match for \(filter.text)", kind: .failure)
        }
    }

    private mutating func findRequest(_ filter: Filter, forward: Bool, includingCurrent: Bool, rows: Int) -> Bool {
        let log = shown.requests
        let window = RequestWindow(log: log, interface: interface, rows: rows)
        guard let selected = window.selectedPosition, let newest = window.rows.newestPosition else { return false }
        let count = newest + 1
        // Forward means down the screen: towards older requests, smaller positions.
        let step = forward ? -1 : 1
        for offset in (includingCurrent ? 0 : 1)...count {
            let position = ((selected + step * offset) % count + count) % count
            let serial = window.rows.serial(at: position)
            if let record = log[serial: serial], filter.matches(record) {
                interface.requestSelection = position == newest ? nil : serial
                interface.requestTop = position == newest ? nil : window.rows.serial(at: min(newest, position + rows / 2))
                return true
            }
        }
        return false
    }

    private mutating func findEntry(_ filter: Filter, forward: Bool, includingCurrent: Bool, rows: Int) -> Bool {
        let window = EntryWindow(table: shown.entries, interface: interface, rows: rows, now: now)
        guard let selected = window.selectedIndex else { return false }
        let count = window.rows.count
        let step = forward ? 1 : -1
        for offset in (includingCurrent ? 0 : 1)...count {
            let index = ((selected + step * offset) % count + count) % count
            if filter.matches(EntryRow(window.rows[index], now: now)) {
                interface.entrySelection = window.rows[index].id
                interface.entryRow = index
                interface.entryTop = max(0, index - rows / 2)
                return true
            }
        }
        return false
    }
}
