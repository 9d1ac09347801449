import Dashboard
import Foundation
import Testing
import TerminalUI

/// Compares a rendered ``Grid`` with the snapshot files in `Tests/DashboardTests/Snapshots`:
/// `NAME.txt` holds the text (`grid.text`), `NAME.roles.txt` the role mask with ``legend``.
///
/// A missing or different snapshot fails the test and prints what was rendered. To accept a
/// new rendering, run the tests with `DASHBOARD_RECORD_SNAPSHOTS=1`: the files are written and
/// the test still fails once, so a recording is never mistaken for a pass. Review the diff.
enum Snapshot {
    /// One character per role in the `.roles.txt` files.
    static let legend: [ThemeRole: Character] = [
        .text: ".", .dim: ",", .header: "H", .title: "T", .border: "-", .footer: "f", .status: "s", .key: "k",
        .selection: "S", .marked: "M", .gauge: "g", .gaugeEmpty: "_", .hit: "h", .stale: "~", .revalidated: "r",
        .modified: "m", .miss: "x", .bypass: "b", .coalesced: "c", .error: "E", .warning: "W", .ttlFresh: "F",
        .ttlExpiring: "!", .ttlExpired: "X", .searchMatch: "/",
    ]

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    static var recording: Bool { ProcessInfo.processInfo.environment["DASHBOARD_RECORD_SNAPSHOTS"] == "1" }

    /// Checks `grid` against snapshot `name`.
    static func check(_ grid: Grid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let files = [("\(name).txt", grid.text + "\n"), ("\(name).roles.txt", grid.roleMask(legend) + "\n")]
        for (file, actual) in files {
            let url = directory.appendingPathComponent(file)
            if recording {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try? Data(actual.utf8).write(to: url)
                Issue.record("recorded \(file); run again without DASHBOARD_RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
                continue
            }
            guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("missing snapshot \(file) (record it with DASHBOARD_RECORD_SNAPSHOTS=1):\n\(actual)",
                             sourceLocation: sourceLocation)
                continue
            }
            if expected != actual {
                Issue.record("\(file) differs:\n\(difference(expected: expected, actual: actual))", sourceLocation: sourceLocation)
            }
        }
    }

    /// The differing lines, numbered, expected (-) above actual (+).
    static func difference(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? String(old[index]) : "<none>"
            let after = index < new.count ? String(new[index]) : "<none>"
            if before != after {
                lines.append(String(format: "%3d - %@", index + 1, before))
                lines.append(String(format: "%3d + %@", index + 1, after))
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The sizes every view is snapshotted at.
enum SnapshotSizes {
    static let all = [
        TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 160, rows: 50),
    ]

    static func name(_ view: String, _ size: TerminalSize) -> String { "\(view)-\(size.columns)x\(size.rows)" }
}

/// Presses `keys` on `state` at a terminal of `size` (key handling pages by the screen size),
/// returning the effects of the last key.
@discardableResult
func press(_ keys: [Key], on state: inout DashboardState, size: TerminalSize = TerminalSize(columns: 80, rows: 24)) -> [DashboardEffect] {
    state.interface.screen = size
    var effects: [DashboardEffect] = []
    for key in keys { effects = DashboardKeys.handle(key, state: &state) }
    return effects
}

/// Renders `state` at `size` as the app does (the interface knows the size it is drawn at).
func render(_ state: DashboardState, size: TerminalSize, theme: String = "default", now: Double = SampleSession.now) throws -> Grid {
    var state = state
    state.interface.screen = size
    return DashboardLayout.render(state, size: size, theme: try ThemeLoader.builtIn(named: theme), now: now)
}
