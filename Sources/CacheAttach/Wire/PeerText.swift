/// Text another process sent (its hello's process name, a command's result message), made
/// safe to print on one line of a terminal: control characters — line breaks, escape
/// sequences that would move the cursor or clear the screen — become U+FFFD, and it is cut
/// to a length. Only a process of the same user can reach an attach socket, but what it
/// says must still not take over the terminal of the one who asked.
enum PeerText {
    /// `text` with every control character (C0, DEL, C1) replaced by U+FFFD, and at most
    /// `limit` characters (an ellipsis ends a cut one).
    static func printable(_ text: String, limit: Int) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result.append("…")
                break
            }
            result.append(scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar)
            count += 1
        }
        return String(result)
    }
}
