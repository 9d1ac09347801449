import TerminalUI

/// Pasted text (bracketed paste): text for a prompt, never keys. Before it, a line break in a
/// paste into the filter prompt was Enter, and the letters after it ran as commands — `e`
/// purged, and a `y` answered the purge question.
extension DashboardState {
    /// What the status line says when a paste arrives with no prompt open.
    static let pasteWithoutPrompt = "pasted text goes only into a prompt (f filter, / search, : command); it was ignored"

    /// ``Key/pasteStart`` and ``Key/pasteEnd``: a paste begins; or it ends, saying so when
    /// no prompt took it.
    mutating func bracketPaste(start: Bool) -> [DashboardEffect] {
        if start {
            interface.pasteDropped = 0
            return []
        }
        let dropped = interface.pasteDropped ?? 0
        interface.pasteDropped = nil
        guard dropped > 0 else { return [.redraw] }
        setStatus(Self.pasteWithoutPrompt, kind: .failure)
        return [.redraw]
    }

    /// The key a pasted `key` types into the open prompt — a line break or tab as a space,
    /// printable text as itself — or `nil` when it is dropped: no prompt is open (a y/n
    /// question is not answered by a paste either), or it is a control key.
    mutating func pasted(_ key: Key) -> Key? {
        let asking = switch interface.overlay {
        case .confirmPurgeAll, .confirmPurge: true
        case .detail, .help, nil: false
        }
        guard interface.prompt != nil, !asking else {
            interface.pasteDropped? += 1
            return nil
        }
        switch key {
        case .enter, .tab: return .character(" ")
        case .character: return key
        default: return nil
        }
    }
}
