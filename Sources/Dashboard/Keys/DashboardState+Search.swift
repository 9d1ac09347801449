import TerminalUI
import HTTPCaching
import CacheEvents

/// The incremental search: `/` opens the prompt, each key moves to the first match, `Enter`
/// keeps the query for `n` / `N`, `Esc` goes back to where the search started.
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
        interface.search.isEditing = true
        interface.search.query = ""
        interface.search.savedRequestSelection = .some(interface.requestSelection)
        interface.search.savedEntrySelection = .some(interface.entrySelection)
        interface.status = nil
    }

    /// A key while the prompt is open.
    mutating func editSearch(_ key: Key) -> [DashboardEffect] {
        switch key {
        case .enter:
            interface.search.isEditing = false
            let query = interface.search.query
            if query.isEmpty {
                interface.status = nil
            } else if selectionMatches(query) {
                setStatus("search \"\(query)\": n next, N previous, Esc clears")
            } else {
                setStatus("no match for \"\(query)\"", kind: .failure)
            }
        case .escape:
            restoreSearchOrigin()
            interface.search = SearchState()
            interface.status = nil
        case .backspace, .delete:
            guard !interface.search.query.isEmpty else { return [] }
            interface.search.query.removeLast()
            restoreSearchOrigin()
            if !interface.search.query.isEmpty { findMatch(forward: true, includingCurrent: true) }
        case .character(let character):
            interface.search.query.append(character)
            findMatch(forward: true, includingCurrent: true)
        default:
            return []
        }
        return [.redraw]
    }

    /// Whether the selected row matches `query`.
    private func selectionMatches(_ query: String) -> Bool {
        switch selectedTarget {
        case .request(let serial): shown.requests[serial: serial].map { RowMatching.matches($0, query: query) } ?? false
        case .entry(let ref): shown.entries[ref].map { RowMatching.matches($0, query: query) } ?? false
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

    /// Selects the next (`forward`: older / further down) row that matches the query,
    /// wrapping around; `includingCurrent` lets the selected row itself match.
    mutating func findMatch(forward: Bool, includingCurrent: Bool) {
        let query = interface.search.query
        guard !query.isEmpty else {
            setStatus("no search: press / to search")
            return
        }
        let rows = ScreenGeometry(interface.screen).listRows
        let found: Bool
        switch interface.view {
        case .requests: found = findRequest(query, forward: forward, includingCurrent: includingCurrent, rows: rows)
        case .entries: found = findEntry(query, forward: forward, includingCurrent: includingCurrent, rows: rows)
        case .stats: found = false
        }
        if found {
            if !interface.search.isEditing { interface.status = nil }
        } else {
            setStatus("no match for \"\(query)\"", kind: .failure)
        }
    }

    private mutating func findRequest(_ query: String, forward: Bool, includingCurrent: Bool, rows: Int) -> Bool {
        let log = shown.requests
        let window = RequestWindow(log: log, interface: interface, rows: rows)
        guard let selected = window.selected, let newest = log.newestSerial, let oldest = log.oldestSerial else { return false }
        let count = newest - oldest + 1
        // Forward means down the screen: towards older requests, smaller serials.
        let step = forward ? -1 : 1
        for offset in (includingCurrent ? 0 : 1)...count {
            var serial = selected + step * offset
            serial = oldest + ((serial - oldest) % count + count) % count
            if let record = log[serial: serial], RowMatching.matches(record, query: query) {
                interface.requestSelection = serial == newest ? nil : serial
                interface.requestTop = serial == newest ? nil : serial + rows / 2
                if serial != newest, let top = interface.requestTop, top > newest { interface.requestTop = newest }
                return true
            }
        }
        return false
    }

    private mutating func findEntry(_ query: String, forward: Bool, includingCurrent: Bool, rows: Int) -> Bool {
        let window = EntryWindow(table: shown.entries, interface: interface, rows: rows)
        guard let selected = window.selectedIndex else { return false }
        let count = window.rows.count
        let step = forward ? 1 : -1
        for offset in (includingCurrent ? 0 : 1)...count {
            let index = ((selected + step * offset) % count + count) % count
            if RowMatching.matches(window.rows[index], query: query) {
                interface.entrySelection = window.rows[index].ref
                interface.entryRow = index
                interface.entryTop = max(0, index - rows / 2)
                return true
            }
        }
        return false
    }
}

/// What a search matches: what the row shows.
enum RowMatching {
    /// A request matches on its URL, method, outcome, reason or status.
    static func matches(_ record: RequestRecord, query: String) -> Bool {
        SearchHighlight.matches(record.url, query: query)
            || SearchHighlight.matches(record.method, query: query)
            || SearchHighlight.matches(record.reason, query: query)
            || (record.outcome.map { SearchHighlight.matches($0.rawValue, query: query) } ?? false)
            || (record.status > 0 && SearchHighlight.matches(String(record.status), query: query))
    }

    /// An entry matches on its key, variant or validators.
    static func matches(_ entry: EntryRecord, query: String) -> Bool {
        SearchHighlight.matches(entry.ref.key, query: query)
            || SearchHighlight.matches(entry.ref.variant, query: query)
            || (entry.etag.map { SearchHighlight.matches($0, query: query) } ?? false)
    }
}
