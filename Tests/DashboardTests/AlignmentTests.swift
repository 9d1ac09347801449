import CacheEvents
import Testing
import TerminalUI
@testable import Dashboard

/// Small things a user sees (a hunt of 27 November): columns out of line, a title cut by the
/// drill-down marker, marks offered where `d` is refused.
@Suite("Alignment and marks")
struct AlignmentTests {
    private let size = TerminalSize(columns: 120, rows: 200)

    @Test("the Stats view's definitions all start in one column, the longest label and value included")
    func statsDefinitions() throws {
        var state = SampleSession.state()
        press([.character("3")], on: &state, size: size)
        let text = try render(state, size: size).text
        let lines = text.split(separator: "\n")
        let labels = ["finished requests", "evicted: invalidated", "latency min / max", "in flight"]
        let starts = lines.filter { line in labels.contains { line.hasPrefix("  " + $0) } }.compactMap { line -> Int? in
            // The definition follows the value after three spaces: the last such gap in the
            // first 45 columns (a value may hold single spaces: `0.40ms / 200ms`).
            let scalars = Array(line.unicodeScalars)
            var found: Int?
            for index in 0..<min(45, max(0, scalars.count - 3))
            where scalars[index] == " " && scalars[index + 1] == " " && scalars[index + 2] == " " && scalars[index + 3] != " " {
                found = index + 3
            }
            return found
        }
        #expect(starts.count == labels.count, "\(lines.filter { line in labels.contains { line.hasPrefix("  " + $0) } })")
        #expect(Set(starts).count == 1, "definitions start at \(starts): \(lines.filter { line in labels.contains { line.hasPrefix("  " + $0) } })")
    }

    @Test("a drill-down column's title keeps every letter: its + stands in the space before it")
    func drillMarker() throws {
        var state = SampleSession.state()
        state.interface.drillColumn = 1
        let header = try render(state, size: size).text.split(separator: "\n").first { $0.contains("URL") } ?? ""
        #expect(!header.contains("…"), "\(header)")
        #expect(header.contains("+"), "\(header)")
    }

    @Test("in a replay, m and M mark nothing and say why, as d would")
    func noMarksWhereDIsRefused() {
        // Live, the same keys mark.
        var live = SampleSession.state()
        press([.character("2"), .character("m")], on: &live, size: size)
        #expect(!live.interface.marks.isEmpty)
        var state = SampleSession.state(mode: .replay(ReplayStatus()))
        press([.character("2"), .character("m")], on: &state, size: size)
        #expect(state.interface.marks.isEmpty)
        #expect(state.interface.status?.kind == .failure)
        press([.character("M")], on: &state, size: size)
        #expect(state.interface.marks.isEmpty)
    }
}
