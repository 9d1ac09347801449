/// What a key handler asks the ``ScreenLoop`` to do next.
///
/// Key tables map a ``Key`` to a change of state and return what must be redone, as htop's
/// actions do; the loop does the redoing.
///
/// ```swift
/// loop.run(render: { size in layout(state, size) }) { key in
///     switch key {
///     case .character("q"): .quit
///     case .character("t"): .setTheme(try! ThemeLoader.nextTheme(after: current))
///     case .down: { state.moveDown(); return .redraw }()
///     default: .continue
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
