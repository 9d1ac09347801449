/// Text another process sent (its hello's process name, a command's result message), made
/// safe to print on one line of a terminal: control characters — line breaks, escape
/// sequences that would move the cursor or clear the screen — and invisible format
/// characters — bidi overrides that would reorder the line (U+202E), zero-width ones — become
/// U+FFFD, and it is cut to a length. Only a process of the same user can reach an attach
/// socket, but what it says must still not take over the terminal of the one who asked.
enum PeerText {
    /// `text` with every control character (C0, DEL, C1), format character (bidi controls,
    /// zero-width characters) and line or paragraph separator replaced by U+FFFD, and at most
    /// `limit` Unicode scalars (an ellipsis ends a cut one).
    static func printable(_ text: String, limit: Int) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result.append("…")
                break
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: result.append("\u{FFFD}")
            default: result.append(scalar)
            }
            count += 1
        }
        return String(result)
    }
}
