/// What a key handler asks the ``ScreenLoop`` to do next.
///
/// Key tables map a ``Key`` to a change of state and return what must be redone, as htop's
/// actions do; the loop does the redoing.
///
/// ```swift
/// func handle(_ key: Key) -> LoopAction {
///     switch key {
///     case .character("q"): return .quit
///     case .down, .character("j"): model.moveDown(); return .redraw
///     case .character("t"): return (try? ThemeLoader.nextTheme(after: loop.theme)).map(LoopAction.setTheme) ?? .continue
///     default: return .continue
///     }
/// }
/// ```
public enum LoopAction: Hashable, Sendable {
    /// Nothing visible changed; keep waiting.
    case `continue`
    /// State changed: render and paint a new frame (coalesced to the frame rate).
    case redraw
    /// Leave the loop; ``ScreenLoop/run(render:handleKey:)`` returns ``ScreenLoop/Exit/quit``.
    case quit
    /// Paint with another theme from now on (a full repaint follows).
    case setTheme(Theme)
}
