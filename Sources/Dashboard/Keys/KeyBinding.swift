public import TerminalUI

/// One line of the key table: the keys, the action, and the words the help and the footer use.
public struct KeyBinding: Sendable, Hashable {
    /// When a binding applies.
    public enum Scope: Sendable, Hashable {
        /// In every mode.
        case always
        /// Live and attached only (not in a replay).
        case notReplay
        /// In a replay only (these take precedence there).
        case replay
    }

    /// The help's group heading: `Move`, `Views`, …
    public var group: String
    /// The keys, as ``Key`` values.
    public var keys: [Key]
    /// How the help writes the keys: `↑ k`, `0–9`.
    public var label: String
    /// What the keys do.
    public var action: DashboardAction
    /// One line for the help.
    public var help: String
    /// When it applies.
    public var scope: Scope
    /// The short hint for the footer (`d purge`), or `nil` to leave it out of the footer.
    public var hint: String?
    /// The views whose footer shows the hint (all when empty).
    public var hintViews: Set<DashboardView>

    init(
        _ group: String, _ keys: [Key], _ label: String, _ action: DashboardAction, _ help: String,
        scope: Scope = .always, hint: String? = nil, views: Set<DashboardView> = []
    ) {
        self.group = group
        self.keys = keys
        self.label = label
        self.action = action
        self.help = help
        self.scope = scope
        self.hint = hint
        self.hintViews = views
    }

    /// Whether the binding applies in a replay (`true`) or live/attached (`false`).
    func applies(inReplay replay: Bool) -> Bool {
        switch scope {
        case .always: true
        case .notReplay: !replay
        case .replay: replay
        }
    }
}
