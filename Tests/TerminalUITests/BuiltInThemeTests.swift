import Foundation
import Testing
@testable import TerminalUI

/// The themes shipped in `themes/` and compiled into the binary.
@Suite("Built-in themes")
struct BuiltInThemeTests {
    @Test("the built-in names cycle in the documented order")
    func names() {
        #expect(ThemeLoader.builtInNames == ["default", "light", "solarized-dark", "high-contrast", "mono"])
    }

    @Test("every shipped theme loads and defines or inherits every role", arguments: ThemeLoader.builtInNames)
    func everyThemeHasEveryRole(name: String) throws {
        let theme = try ThemeLoader.builtIn(named: name)
        #expect(theme.name == name)
        #expect(Set(theme.styles.keys) == Set(ThemeRole.allCases))
    }

    @Test("default and mono spell out every role themselves (nothing to inherit from)", arguments: ["default", "mono"])
    func selfContained(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: PackageFolder.themes.appendingPathComponent("\(name).json")))
        let theme = try ThemeFileDecoder(file: name, base: [:]).decode(bytes, fallbackName: name)
        #expect(Set(theme.styles.keys) == Set(ThemeRole.allCases))
    }

    @Test("the embedded table matches the files in themes/, byte for byte")
    func embeddedMatchesFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: PackageFolder.themes.path)
            .filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(ThemeLoader.builtInNames))
        for (name, bytes) in BuiltInThemes.files {
            let onDisk = try [UInt8](Data(contentsOf: PackageFolder.themes.appendingPathComponent("\(name).json")))
            #expect(bytes == onDisk, "themes/\(name).json changed but the build embedded an older copy")
        }
    }

    @Test("mono uses no colour, only attributes; selection is reversed")
    func mono() throws {
        let mono = try ThemeLoader.builtIn(named: "mono")
        #expect(!mono.usesColor)
        for role in ThemeRole.allCases {
            #expect(mono.style(for: role).fg == .default && mono.style(for: role).bg == .default)
        }
        #expect(mono.style(for: .selection).reverse)
        #expect(mono.style(for: .error).bold && mono.style(for: .error).reverse)
    }

    @Test("roles without colours take the background role's colours")
    func backgroundInheritance() throws {
        let solarized = try ThemeLoader.builtIn(named: "solarized-dark")
        #expect(solarized.style(for: .text) == Style(fg: .rgb(0x83, 0x94, 0x96), bg: .rgb(0x00, 0x2B, 0x36)))
        #expect(solarized.style(for: .hit) == Style(fg: .rgb(0x85, 0x99, 0x00), bg: .rgb(0x00, 0x2B, 0x36), bold: true))
        let dark = try ThemeLoader.builtIn(named: "default")
        #expect(dark.style(for: .text) == Style(fg: .default, bg: .default))
        #expect(dark.style(for: .selection) == Style(fg: .named(.black), bg: .rgb(0x5F, 0xAF, 0xFF)))
    }

    @Test("the t key cycles default → light → solarized-dark → high-contrast → mono → default")
    func cycle() throws {
        var theme = try ThemeLoader.builtIn(named: "default")
        var seen: [String] = []
        for _ in 0..<5 {
            theme = try ThemeLoader.nextTheme(after: theme)
            seen.append(theme.name)
        }
        #expect(seen == ["light", "solarized-dark", "high-contrast", "mono", "default"])
        #expect(ThemeLoader.nextName(after: "my-own") == "default")
    }

    /// A file naming itself `solarized-dark` was followed by `high-contrast`.
    @Test("a theme loaded from a file is followed by default, whatever name it gives itself")
    func fileThemeNamedLikeABuiltIn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-theme-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"name": "solarized-dark", "roles": {"hit": {"fg": "green"}}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try ThemeLoader.load(path: path)
        #expect(loaded.name == "solarized-dark")
        #expect(try ThemeLoader.nextTheme(after: loaded).name == "default")
        #expect(try ThemeLoader.nextTheme(after: ThemeLoader.builtIn(named: "solarized-dark")).name == "high-contrast")
    }

    @Test("a distinct look for every outcome in every colour theme")
    func outcomesDiffer() throws {
        let outcomes: [ThemeRole] = [.hit, .stale, .revalidated, .modified, .miss, .bypass, .error]
        for name in ThemeLoader.builtInNames where name != "mono" {
            let theme = try ThemeLoader.builtIn(named: name)
            #expect(Set(outcomes.map(theme.style(for:))).count == outcomes.count, "\(name)")
        }
    }
}
