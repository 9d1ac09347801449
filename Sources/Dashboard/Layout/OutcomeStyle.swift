import HTTPCaching
import TerminalUI

/// How each outcome looks: a role for colour and, so colour is never the only signal, a glyph
/// and a word.
///
/// | outcome | glyph | role |
/// | --- | --- | --- |
/// | hit | ✓ | `hit` |
/// | stale | ~ | `stale` |
/// | revalidated | ↻ | `revalidated` |
/// | modified | ± | `modified` |
/// | miss | ✗ | `miss` |
/// | bypass | ⇢ | `bypass` |
/// | error | ! | `error` |
/// | (coalesced) | ⇉ | `coalesced` |
enum OutcomeStyle {
    /// The glyph shown before an outcome everywhere.
    static func glyph(_ outcome: CacheOutcome) -> String {
        switch outcome {
        case .hit: "✓"
        case .stale: "~"
        case .revalidated: "↻"
        case .modified: "±"
        case .miss: "✗"
        case .bypass: "⇢"
        case .error: "!"
        }
    }

    /// The glyph for coalesced requests.
    static let coalescedGlyph = "⇉"

    /// The role an outcome is drawn in.
    static func role(_ outcome: CacheOutcome) -> ThemeRole {
        switch outcome {
        case .hit: .hit
        case .stale: .stale
        case .revalidated: .revalidated
        case .modified: .modified
        case .miss: .miss
        case .bypass: .bypass
        case .error: .error
        }
    }

    /// The word in tables: `HIT`, `REVALIDATED`, …
    static func label(_ outcome: CacheOutcome) -> String { outcome.rawValue.uppercased() }

    /// A short word for narrow headers: `reval`, `mod`, `err`, …
    static func shortName(_ outcome: CacheOutcome) -> String {
        switch outcome {
        case .revalidated: "reval"
        case .modified: "mod"
        case .error: "err"
        default: outcome.rawValue
        }
    }
}
