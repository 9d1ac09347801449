/// A semantic colour role: what a piece of the screen *means*, not how it looks.
///
/// Layout code tags every ``Cell`` with a role; a ``Theme`` maps each role to a ``Style``.
/// Swapping themes therefore never touches layout, and snapshot tests can assert roles
/// (``Grid/roleMask(_:)``) independently of colours. Raw values are the kebab-case keys used in
/// theme files (`"gauge-empty"`, `"ttl-fresh"`, …).
///
/// ```swift
/// grid.write("hit", x: 0, y: 3, role: .hit)
/// ThemeRole(rawValue: "ttl-expired") // .ttlExpired
/// ```
public enum ThemeRole: String, CaseIterable, Hashable, Sendable {
    /// The base of the screen. Its foreground and background are used by every role that does
    /// not set its own.
    case background
    /// Ordinary text.
    case text
    /// Secondary text: units, explanations, disabled items.
    case dim
    /// Column headers of tables.
    case header
    /// Titles of views and panels.
    case title
    /// Box-drawing lines and separators.
    case border
    /// The bottom line with key hints.
    case footer
    /// The status line: mode, follow/pause state, counters.
    case status
    /// Key names inside hints (`q`, `/`, `F1`).
    case key
    /// The selected row.
    case selection
    /// Rows the user marked for a bulk action.
    case marked
    /// The filled part of a bar or gauge.
    case gauge
    /// The unfilled part of a bar or gauge.
    case gaugeEmpty = "gauge-empty"
    /// A response served fresh from the cache.
    case hit
    /// A response served stale from the cache.
    case stale
    /// A conditional request answered 304 Not Modified.
    case revalidated
    /// A conditional request answered with a new representation (200).
    case modified
    /// A cache miss: the response came from the network.
    case miss
    /// A request that did not use the cache (`no-store`, unsafe method, policy).
    case bypass
    /// A request that waited on an identical in-flight request.
    case coalesced
    /// Errors.
    case error
    /// Warnings that need attention but are not errors.
    case warning
    /// A time-to-live with plenty left.
    case ttlFresh = "ttl-fresh"
    /// A time-to-live about to run out.
    case ttlExpiring = "ttl-expiring"
    /// A time-to-live that has run out.
    case ttlExpired = "ttl-expired"
    /// Text matching the current search.
    case searchMatch = "search-match"
}
