import CacheEvents
import SessionLog

/// The three views `Tab` and `1` `2` `3` switch between.
public enum DashboardView: Int, CaseIterable, Sendable, Hashable {
    /// Recent requests, newest first.
    case requests = 1
    /// Stored responses with their TTLs.
    case entries = 2
    /// Every figure with its definition.
    case stats = 3

    /// The tab's title.
    public var title: String {
        switch self {
        case .requests: "Requests"
        case .entries: "Entries"
        case .stats: "Stats"
        }
    }

    /// The view after this one (`Tab`), wrapping around.
    public var next: DashboardView { DashboardView(rawValue: rawValue % 3 + 1)! }

    /// The view before this one (Shift-Tab), wrapping around.
    public var previous: DashboardView { DashboardView(rawValue: (rawValue + 1) % 3 + 1)! }
}

/// What an overlay shows on top of the current view.
public enum Overlay: Sendable, Hashable {
    /// The detail pane for a request or an entry (`Enter`).
    case detail(DetailTarget)
    /// Every key and every figure's definition (`?`, `F1`, `h`).
    case help
    /// "Purge everything? y/n" (`D`).
    case confirmPurgeAll
    /// "Purge these entries? y/n" with what would go (`d` on marks, `:purge FILTER`).
    case confirmPurge(PurgePreview)
}

/// What a detail pane describes; fixed when it opens, so it does not jump as rows move.
public enum DetailTarget: Sendable, Hashable {
    /// A request, by serial.
    case request(serial: Int)
    /// A stored entry (of one instance).
    case entry(EntryRowID)
}
