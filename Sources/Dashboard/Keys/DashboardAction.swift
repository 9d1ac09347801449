public import CacheEvents
import SessionLog

/// Something a key asks the dashboard to do. The key table maps keys to actions; performing an
/// action changes the state and returns the effects the app must carry out (htop's
/// `Action.c` pattern).
public enum DashboardAction: Sendable, Hashable {
    /// Select the row above (newer, in the Requests view) or scroll a text view up.
    case moveUp
    /// Select the row below or scroll a text view down.
    case moveDown
    /// One screen up.
    case pageUp
    /// One screen down.
    case pageDown
    /// The first row (in the Requests view: the newest, following new requests again).
    case top
    /// The last row.
    case bottom
    /// The next view.
    case nextView
    /// The previous view.
    case previousView
    /// A given view.
    case showView(DashboardView)
    /// The detail pane of the selected row.
    case details
    /// Close the overlay or the search; nothing at the top.
    case back
    /// Open the search prompt.
    case search
    /// Open the filter prompt.
    case filter
    /// Move the drill-down column to the next column that has values to filter by.
    case nextDrillColumn
    /// Add the selected row's value of the drill-down column to the filter.
    case drillDown
    /// The next row that matches the search.
    case nextMatch
    /// The previous row that matches the search.
    case previousMatch
    /// Sort the Entries view by the next column.
    case sortNext
    /// Reverse the Entries view's sort.
    case sortReverse
    /// Pause the display (collection goes on) or resume it.
    case pause
    /// Resume the display and follow the newest request.
    case follow
    /// Purge the selected entry (or request's key), or the marked ones.
    case purgeSelected
    /// Purge everything, after a y/n question.
    case purgeAll
    /// Purge every entry whose freshness has run out.
    case purgeExpired
    /// Revalidate the selected entry with a conditional request.
    case refresh
    /// Fetch the selected entry again unconditionally.
    case reload
    /// Mark or unmark the selected row's key.
    case mark
    /// Clear every mark.
    case clearMarks
    /// Mark every row the view lists (all the filter matches).
    case markMatching
    /// Open the `:purge FILTER` prompt.
    case purgePrompt
    /// Switch to the next built-in theme.
    case nextTheme
    /// Show the help.
    case help
    /// Close the overlay, or quit at the top.
    case quitOrBack
    /// Quit at once.
    case quit
    /// Control a replay.
    case replay(ReplayControl)
    /// Live or attached: freeze and step through the recent history (`←` `→`).
    case rewind(ReplayControl)
}

/// What the replay keys ask of the session replayer.
public enum ReplayControl: Sendable, Hashable {
    /// Play or pause (`Space`).
    case togglePlaying
    /// Halve the speed (`<`).
    case slower
    /// Double the speed (`>`).
    case faster
    /// Take back one event (`[`).
    case stepBack
    /// Apply one more event (`]`).
    case stepForward
    /// Seek by this many seconds (`←` −10, `→` +10).
    case seek(seconds: Double)
    /// Seek to this fraction of the session (`0`–`9`: 0 %–90 %).
    case seekFraction(Double)
    /// Seek to the end (`$`).
    case end

    /// Whether it moves towards the newer events (`→`, `]`, `$`): on a live display there is
    /// nothing newer to move to.
    var movesForward: Bool {
        switch self {
        case .seek(let seconds): seconds > 0
        case .stepForward, .end: true
        case .togglePlaying, .slower, .faster, .stepBack, .seekFraction: false
        }
    }
}

/// What the app must do after a key: the state has already changed.
public enum DashboardEffect: Sendable, Hashable {
    /// Paint a new frame.
    case redraw
    /// Send a command to the cache and show its result on the status line (in a fleet: to
    /// every connected instance).
    case send(ClientCommand)
    /// In a fleet: send a command to these instances only (those that store the entries it
    /// names), and show their results together on the status line.
    case sendTo(ClientCommand, instances: [UInt16])
    /// In a fleet: purge each key in each instance named (one `purge` per key and instance),
    /// and show one report for them all (``FleetPurgeReport``). The value is how many entries
    /// the preview counted for each key in each instance.
    case purgeEach([PurgeTarget: Int])
    /// Switch to the next theme.
    case nextTheme
    /// Carry out a replay control on the replayer.
    case replay(ReplayControl)
    /// Freeze the live display and move through the recent history.
    case rewind(ReplayControl)
    /// End the dashboard.
    case quit
}
