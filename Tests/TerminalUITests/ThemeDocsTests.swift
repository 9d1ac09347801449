import Foundation
import Testing
@testable import TerminalUI

/// docs/themes.md stays true: its example loads and it describes every role.
@Suite("Theme documentation")
struct ThemeDocsTests {
    private static func document() throws -> String {
        try String(contentsOf: PackageFolder.root.appendingPathComponent("docs/themes.md"), encoding: .utf8)
    }

    @Test("the example theme in the docs loads and means what the docs say")
    func exampleLoads() throws {
        let text = try Self.document()
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let theme = try ThemeLoader.decode(Array(text[start.upperBound..<end.lowerBound].utf8),
                                           file: "docs/themes.md", fallbackName: "example")
        #expect(theme.name == "ocean")
        #expect(theme.style(for: .selection).bg?.xterm256Index == 75)
        #expect(theme.style(for: .stale).bold == false)   // replaced as a whole, not merged
        #expect(theme.styles[.coalesced] == (try ThemeLoader.builtIn(named: "default")).styles[.coalesced])
    }

    @Test("every role is listed in the role table", arguments: ThemeRole.allCases)
    func roleDocumented(role: ThemeRole) throws {
        #expect(try Self.document().contains("| `\(role.rawValue)` |"))
    }
}
