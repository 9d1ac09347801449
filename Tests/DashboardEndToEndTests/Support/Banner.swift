import Foundation

/// The line a started command prints to say where it listens (`cachescope proxy on URL …`,
/// `demo origin listening on URL`), read from its output file while it runs.
enum Banner {
    /// Polls the file at `path` every 20 ms until `read` finds what it looks for in its text, for
    /// at most `limit`: a process that never says it cannot hang a test, and a debug binary
    /// starting on a busy machine gets seconds to say it. Nil when it never did.
    static func wait<Found>(
        in path: String, within limit: Duration = .seconds(30), _ read: (String) -> Found?
    ) async throws -> Found? {
        let deadline = ContinuousClock.now + limit
        repeat {
            try await Task.sleep(for: .milliseconds(20))
            if let found = read((try? String(contentsOfFile: path, encoding: .utf8)) ?? "") { return found }
        } while ContinuousClock.now < deadline
        return nil
    }

    /// The text after `prefix` up to a space, a `;` or the end of the line; nil when `text` has
    /// no `prefix` or nothing ends the word yet (the process is still writing it).
    static func word(after prefix: String, in text: String) -> String? {
        guard let range = text.range(of: prefix),
            let end = text[range.upperBound...].firstIndex(where: { $0 == " " || $0 == ";" || $0 == "\n" })
        else { return nil }
        return String(text[range.upperBound..<end])
    }
}
