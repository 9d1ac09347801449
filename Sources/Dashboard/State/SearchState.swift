import CacheEvents
import SessionLog
public import TrafficFilter

/// The search (`/`, then `n` / `N`): a filter expression whose matching rows the selection
/// jumps to, in the views' order.
public struct SearchState: Sendable, Hashable {
    /// The expression searched for; `nil` for no search.
    public var filter: Filter?
    /// The selection before the prompt opened, restored by `Esc`.
    var savedRequestSelection: Int??
    var savedEntrySelection: EntryRowID??

    /// No search.
    public init() {}

    /// The text to highlight in URLs and keys: the search's text when it is plain text alone.
    var highlight: String { filter?.plainText ?? "" }
}
