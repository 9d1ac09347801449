import CacheEvents
import SessionLog
public import TerminalUI
public import TrafficFilter

/// Everything about the dashboard that is not traffic: which view, what is selected, the sort,
/// the search, the marks, the overlay and the status line.
public struct InterfaceState: Sendable, Hashable {
    /// Where events come from.
    public var mode: DashboardMode = .live
    /// The current view.
    public var view: DashboardView = .requests
    /// What is shown on top of the view, if anything.
    public var overlay: Overlay?
    /// The selected request's serial; `nil` follows the newest.
    public var requestSelection: Int?
    /// The serial of the Requests view's top row; `nil` keeps the newest at the top.
    public var requestTop: Int?
    /// The selected entry; `nil` selects the first row.
    public var entrySelection: EntryRowID?
    /// The selected entry's row, used when that entry disappears (the row below is selected).
    public var entryRow = 0
    /// The Entries view's top row.
    public var entryTop = 0
    /// The Entries view's sort.
    public var sort = EntrySort()
    /// The view filter (`f`): the Requests and Entries views list only matching rows.
    public var filter: Filter?
    /// The filter or search prompt, while it is open.
    public var prompt: FilterPrompt?
    /// Expressions entered in the prompts, for `↑` `↓`.
    public var history = FilterHistory()
    /// The column whose value of the selected row `+` adds to the filter (`c` moves it; `nil`:
    /// the first, not highlighted).
    public var drillColumn: Int?
    /// The search.
    public var search = SearchState()
    /// While a paste arrives (between ``Key/pasteStart`` and ``Key/pasteEnd``): how many of its
    /// keys were dropped because no prompt was open to take them; `nil` outside a paste.
    var pasteDropped: Int?
    /// The filter or search whose given-up pattern the status line has reported
    /// (``DashboardState/reportFilterGiveUp()``), so it is said once.
    var reportedGiveUp: String?
    /// Whether commands that change the cache are disabled (`--read-only`): purge, refresh,
    /// reload; the footer and the help say so.
    public var readOnly = false
    /// Primary keys marked with `m` or `M` (purged together by `d`, after a preview), each in
    /// the instance whose row was marked: in a fleet, marking one instance's copy of a URL
    /// leaves the others' copies unmarked.
    public var marks: Set<PurgeTarget> = []
    /// The status line's message.
    public var status: StatusMessage?
    /// The size of the last frame, which decides how far `PgUp`/`PgDn` move.
    public var screen = TerminalSize(columns: 80, rows: 24)
    /// How far the Stats view, the help or the detail pane is scrolled.
    public var scroll = 0
    /// Session seconds of the latest frame, at which key handling reads TTLs and ages for the
    /// filter (so keys and the screen agree on which entries match).
    public var now: Double = 0
    /// The theme's name, shown in the help.
    public var themeName = "default"
    /// The attached instances when a dashboard watches several (`cachescope attach S1 S2 …`):
    /// their names and whether each is connected. Empty for one.
    public var instances = InstanceRoster()

    /// The default interface: the Requests view, following the newest request.
    public init(mode: DashboardMode = .live) {
        self.mode = mode
    }
}
