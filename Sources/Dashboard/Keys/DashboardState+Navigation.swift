import TerminalUI

/// Moving the selection, scrolling text views, switching views and overlays.
extension DashboardState {
    /// Rows one `PgUp`/`PgDn` moves: the visible rows of a table at the last frame's size.
    var pageRows: Int {
        let geometry = ScreenGeometry(interface.screen)
        return max(1, interface.overlay == nil && interface.view != .stats ? geometry.listRows : geometry.bodyRows - 1)
    }

    /// Moves the selection `delta` rows down (negative: up), or scrolls the text shown.
    mutating func move(by delta: Int) {
        if interface.overlay != nil || interface.view == .stats {
            interface.scroll = min(max(0, interface.scroll + delta), maximumScroll)
            return
        }
        switch interface.view {
        case .requests: moveRequest(by: delta)
        case .entries: moveEntry(to: { $0 + delta })
        case .stats: break
        }
    }

    /// `g` (top) and `G` (bottom).
    mutating func moveToEnd(top: Bool) {
        if interface.overlay != nil || interface.view == .stats {
            interface.scroll = top ? 0 : maximumScroll
            return
        }
        switch interface.view {
        case .requests:
            if top {
                interface.requestSelection = nil
                interface.requestTop = nil
            } else {
                let rows = RequestRows(log: shown.requests, filter: interface.filter)
                guard let newest = rows.newestPosition else { return }
                interface.requestSelection = rows.serial(at: 0)
                interface.requestTop = rows.serial(at: min(pageRows - 1, newest))
            }
        case .entries: moveEntry(to: { _ in top ? 0 : Int.max / 2 })
        case .stats: break
        }
    }

    private mutating func moveRequest(by delta: Int) {
        let rows = ScreenGeometry(interface.screen).listRows
        let window = RequestWindow(log: shown.requests, interface: interface, rows: rows)
        guard let selected = window.selectedPosition, let top = window.topPosition, let newest = window.rows.newestPosition
        else { return }
        // Rows run newest first, so moving down goes to older positions.
        let target = min(max(selected - delta, 0), newest)
        if target == newest, delta < 0 || selected == newest {
            interface.requestSelection = nil   // back at the newest: follow again
            interface.requestTop = nil
            return
        }
        var newTop = top - (abs(delta) >= rows ? delta : 0)
        if target > newTop { newTop = target }
        if target < newTop - rows + 1 { newTop = target + rows - 1 }
        interface.requestSelection = window.rows.serial(at: target)
        interface.requestTop = window.rows.serial(at: min(newTop, newest))
    }

    private mutating func moveEntry(to target: (Int) -> Int) {
        let rows = ScreenGeometry(interface.screen).listRows
        let window = EntryWindow(table: shown.entries, interface: interface, rows: rows, now: now)
        guard let index = window.selectedIndex else { return }
        let newIndex = min(max(target(index), 0), window.rows.count - 1)
        interface.entrySelection = window.rows[newIndex].id
        interface.entryRow = newIndex
        var top = window.top
        if newIndex < top { top = newIndex }
        if newIndex >= top + rows { top = newIndex - rows + 1 }
        interface.entryTop = top
    }

    /// Makes the Entries view's fallback row the one its selected entry is on now, so that
    /// when a command removes that entry the selection lands on the row that followed it.
    /// (Rows above may have gone, or sorted above it, since the selection was moved there.)
    mutating func pinEntryRow() {
        let window = EntryWindow(table: shown.entries, interface: interface, rows: ScreenGeometry(interface.screen).listRows, now: now)
        guard interface.entrySelection != nil, let index = window.selectedIndex else { return }
        interface.entryRow = index
        interface.entryTop = window.top
    }

    /// How far the text on screen can scroll.
    private var maximumScroll: Int {
        let geometry = ScreenGeometry(interface.screen)
        let lines = TextViews.lines(for: self, geometry: geometry, now: isPaused ? frozenClock : shown.clock).count
        return max(0, lines - geometry.bodyRows + 1)
    }

    /// Switches to `view`, closing any overlay.
    mutating func show(_ view: DashboardView) {
        interface.view = view
        interface.overlay = nil
        interface.scroll = 0
    }

    /// `Esc`: closes the overlay, else clears the search, else clears the filter.
    mutating func back() {
        if interface.overlay != nil {
            interface.overlay = nil
            interface.scroll = 0
        } else if interface.search.filter != nil {
            interface.search = SearchState()
            interface.status = nil
        } else if interface.filter != nil {
            apply(nil)
        }
    }

    /// `?`: opens the help, or closes it when open.
    mutating func toggleHelp() {
        interface.overlay = interface.overlay == .help ? nil : .help
        interface.scroll = 0
    }

    /// `Enter`: the detail pane of the selected row; the selection stops following so it is
    /// still there when the pane closes.
    mutating func openDetails() {
        if interface.overlay != nil { return }
        guard let target = selectedTarget else {
            setStatus(interface.view == .stats ? "details are for rows of the Requests and Entries views" : "nothing selected")
            return
        }
        if case .request(let serial) = target {
            let window = RequestWindow(log: shown.requests, interface: interface, rows: ScreenGeometry(interface.screen).listRows)
            interface.requestSelection = serial
            interface.requestTop = window.top
        }
        interface.overlay = .detail(target)
        interface.scroll = 0
    }

    /// What commands and the detail pane act on: the open detail pane's subject, else the
    /// selected row of the current view.
    var selectedTarget: DetailTarget? {
        if case .detail(let target) = interface.overlay { return target }
        let rows = ScreenGeometry(interface.screen).listRows
        switch interface.view {
        case .requests:
            return RequestWindow(log: shown.requests, interface: interface, rows: rows).selected.map { .request(serial: $0) }
        case .entries:
            return EntryWindow(table: shown.entries, interface: interface, rows: rows, now: now).selected.map { .entry($0.id) }
        case .stats:
            return nil
        }
    }

    /// `Space`: pauses the display, or resumes it.
    mutating func togglePause() {
        if isPaused {
            resume()
            setStatus("display resumed")
        } else {
            pause()
            setStatus("display paused; collection goes on (Space resumes, F follows)")
        }
    }

    /// `F`: resumes and selects the newest request.
    mutating func follow() {
        resume()
        interface.requestSelection = nil
        interface.requestTop = nil
        setStatus("following new requests")
    }

    /// `o` (next column) and `O` (reverse).
    mutating func changeSort(reverse: Bool) {
        guard interface.view == .entries else {
            setStatus("the Requests view is in arrival order; o and O sort the Entries view (2)")
            return
        }
        // Keep the selected entry selected wherever the new order puts it.
        if case .entry(let id)? = selectedTarget { interface.entrySelection = id }
        if reverse {
            interface.sort.reversed.toggle()
        } else {
            interface.sort = EntrySort(column: interface.sort.column.next)
        }
        let direction = interface.sort.reversed ? "reversed" : "natural order"
        setStatus("sorted by \(interface.sort.column.title) (\(direction))")
    }
}
