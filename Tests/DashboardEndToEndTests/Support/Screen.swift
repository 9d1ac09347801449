import Foundation

/// Reading figures off a captured dashboard screen, as a user would.
enum Screen {
    /// The number before `label` on the screen (`"1,234 requests"` → 1234).
    static func number(before label: String, in screen: String) -> Int? {
        guard let range = screen.range(of: " " + label) ?? screen.range(of: label) else { return nil }
        let digits = screen[..<range.lowerBound].reversed().prefix { $0.isNumber || $0 == "," }
        return Int(String(digits.reversed()).replacingOccurrences(of: ",", with: ""))
    }

    /// The rows of the table below the column header that starts with `header`.
    static func rows(below header: String, in screen: String) -> [String] {
        let lines = screen.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return Array(lines[(index + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    /// The last non-empty line (the status line).
    static func statusLine(_ screen: String) -> String {
        screen.components(separatedBy: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    /// The first whitespace-separated word of a table row (its URL or key).
    static func firstField(_ row: String) -> String {
        String(row.drop { $0 == " " || $0 == "•" }.prefix { $0 != " " })
    }
}
