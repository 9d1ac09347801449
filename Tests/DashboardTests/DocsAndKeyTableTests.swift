import Foundation
import Testing
import TerminalUI
@testable import Dashboard

@Suite("Key table, help and docs agree")
struct DocsAndKeyTableTests {
    static let docs = (try? String(
        contentsOf: URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/dashboard.md"),
        encoding: .utf8)) ?? ""

    @Test("Every key of DESIGN.md's table is bound")
    func designKeys() {
        let live: [Key] = [
            .up, .down, .character("j"), .character("k"), .pageUp, .pageDown, .character("g"), .character("G"), .tab,
            .character("1"), .character("2"), .character("3"), .enter, .escape, .character("/"), .character("n"), .character("N"),
            .character("o"), .character("O"), .character(" "), .character("F"), .character("d"), .character("D"), .character("e"),
            .character("r"), .character("R"), .character("m"), .character("U"), .character("t"), .character("?"), .function(1),
            .character("h"), .character("q"), .character("Q"),
        ]
        for key in live { #expect(KeyTable.action(for: key, replay: false) != nil, "\(key) is not bound") }
        let replay: [Key] = [.character(" "), .character("<"), .character(">"), .character("["), .character("]"), .left, .right,
                             .character("0"), .character("9"), .character("$")]
        for key in replay {
            guard case .replay? = KeyTable.action(for: key, replay: true) else {
                Issue.record("\(key) does not control the replay")
                continue
            }
        }
    }

    @Test("No key means two things in one mode")
    func noDuplicates() {
        for replay in [false, true] {
            var seen: [Key: String] = [:]
            for binding in KeyTable.bindings(replay: replay) {
                for key in binding.keys {
                    // In a replay the replay bindings shadow the general ones on purpose (Space).
                    if let earlier = seen[key], !(replay && binding.scope != .replay) {
                        Issue.record("\(key) is bound to both \(earlier) and \(binding.help)")
                    }
                    seen[key] = seen[key] ?? binding.help
                }
            }
        }
    }

    @Test("The help lists every binding of the mode")
    func helpListsEveryKey() {
        for mode in [DashboardMode.live, .replay(ReplayStatus())] {
            let state = DashboardState(mode: mode)
            let text = HelpContent.lines(state: state, width: 200).map { $0.map(\.text).joined() }.joined(separator: "\n")
            for binding in KeyTable.bindings(replay: mode.isReplay) {
                #expect(text.contains(binding.label), "the help does not list \(binding.label)")
                #expect(text.contains(binding.help), "the help does not explain \(binding.label)")
            }
            #expect(text.contains(FigureDefinitions.hitRatio))
        }
    }

    @Test("docs/dashboard.md names every key and every figure")
    func docsCoverEverything() throws {
        try #require(!Self.docs.isEmpty, "docs/dashboard.md not found")
        for binding in KeyTable.bindings {
            for label in binding.label.split(separator: " ") {
                #expect(Self.docs.contains("`\(label)`") || Self.docs.contains("`\(binding.label)`"),
                        "docs/dashboard.md does not mention \(label)")
            }
        }
        for figure in ["request hit ratio", "byte hit ratio", "from cache", "from network", "saved", "req/s", "p50 / p99",
                       "evictions/s", "memory / disk", "entries", "events dropped", "coalesced"] {
            #expect(Self.docs.contains("| \(figure) |"), "docs/dashboard.md does not define \(figure)")
        }
        #expect(Self.docs.contains("(hit + stale + revalidated) ÷ (hit + stale + revalidated + modified + miss + error)"))
    }
}
