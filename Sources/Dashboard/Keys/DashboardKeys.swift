public import TerminalUI
import CacheEvents

/// Key handling: a pure function from a state and a key to a new state and the effects the app
/// must carry out. Open prompts take keys first (the y/n question, the search prompt); every
/// other key goes through ``KeyTable`` to an action.
///
/// ```swift
/// var state = DashboardState()
/// let effects = DashboardKeys.handle(.character("D"), state: &state)   // asks "purge all? y/n"
/// DashboardKeys.handle(.character("y"), state: &state)                 // [.send(.purgeAll), .redraw]
/// ```
public enum DashboardKeys {
    /// Applies `key` to `state` and returns what the app must do.
    public static func handle(_ key: Key, state: inout DashboardState) -> [DashboardEffect] {
        if key == .resize { return [.redraw] }
        switch key {
        case .pasteStart, .pasteEnd: return state.bracketPaste(start: key == .pasteStart)
        default: break
        }
        if state.interface.pasteDropped != nil {
            guard let pasted = state.pasted(key) else { return [] }
            return state.editPrompt(pasted)
        }
        if state.interface.overlay == .confirmPurgeAll { return state.answerPurgeAll(key) }
        if case .confirmPurge(let preview)? = state.interface.overlay { return state.answerPurge(key, preview: preview) }
        if state.interface.prompt != nil { return state.editPrompt(key) }
        guard let action = KeyTable.action(for: key, replay: state.interface.mode.isReplay) else { return [] }
        return perform(action, on: &state)
    }

    /// Performs one action.
    public static func perform(_ action: DashboardAction, on state: inout DashboardState) -> [DashboardEffect] {
        switch action {
        case .moveUp: state.move(by: -1)
        case .moveDown: state.move(by: 1)
        case .pageUp: state.move(by: -state.pageRows)
        case .pageDown: state.move(by: state.pageRows)
        case .top: state.moveToEnd(top: true)
        case .bottom: state.moveToEnd(top: false)
        case .nextView: state.show(state.interface.view.next)
        case .previousView: state.show(state.interface.view.previous)
        case .showView(let view): state.show(view)
        case .details: state.openDetails()
        case .back: state.back()
        case .help: state.toggleHelp()
        case .search: state.startSearch()
        case .filter: state.startFilter()
        case .nextDrillColumn: state.nextDrillColumn()
        case .drillDown: state.drillDown()
        case .nextMatch: state.findMatch(forward: true, includingCurrent: false)
        case .previousMatch: state.findMatch(forward: false, includingCurrent: false)
        case .sortNext: state.changeSort(reverse: false)
        case .sortReverse: state.changeSort(reverse: true)
        case .pause: state.togglePause()
        case .follow: state.follow()
        case .mark: state.toggleMark()
        case .clearMarks: state.clearMarks()
        case .markMatching: state.markMatching()
        case .purgePrompt: state.startPurgePrompt()
        case .purgeSelected: return state.purgeSelected()
        case .purgeAll: return state.askPurgeAll()
        case .purgeExpired: return state.command(.purgeExpired, describing: "purging expired entries…")
        case .refresh: return state.refreshSelected(conditional: true)
        case .reload: return state.refreshSelected(conditional: false)
        case .nextTheme: return [.nextTheme, .redraw]
        case .replay(let control): return [.replay(control), .redraw]
        case .rewind(let control): return [.rewind(control), .redraw]
        case .quitOrBack:
            guard state.interface.overlay != nil else { return [.quit] }
            state.interface.overlay = nil
            state.interface.scroll = 0
        case .quit: return [.quit]
        }
        return [.redraw]
    }
}
