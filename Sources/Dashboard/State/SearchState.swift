import CacheEvents
import SessionLog

/// The incremental search (`/`, then `n` / `N`).
public struct SearchState: Sendable, Hashable {
    /// The text searched for (case-insensitive); empty for no search.
    public var query = ""
    /// Whether the prompt is open and keys edit the query.
    public var isEditing = false
    /// The selection before the prompt opened, restored by `Esc`.
    var savedRequestSelection: Int??
    var savedEntrySelection: EntryRef??

    /// No search.
    public init() {}
}
