import TestFixtures
import Foundation
import Testing
@testable import TerminalUI

/// `--theme NAME|PATH`, theme files, inheritance and NO_COLOR.
@Suite("Theme loading")
struct ThemeLoaderTests {
    @Test("a file theme inherits the roles it leaves out from default")
    func inheritance() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("mine.json", """
            {"colors": true, "roles": {"hit": {"fg": "#ff0000", "underline": true}, "miss": {"fg": 33}}}
            """)
        let theme = try ThemeLoader.load(path: path)
        let base = try ThemeLoader.builtIn(named: "default")
        #expect(theme.name == "mine")   // no "name": the file name
        #expect(theme.styles[.hit] == Style(fg: .rgb(0xFF, 0, 0), underline: true))   // replaced whole
        #expect(theme.styles[.miss] == Style(fg: .indexed(33)))
        for role in ThemeRole.allCases where role != .hit && role != .miss {
            #expect(theme.styles[role] == base.styles[role])
        }
    }

    @Test("a file can name itself and turn colour off")
    func nameAndColors() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("x.json", #"{"name": "paper", "description": "test", "colors": false, "roles": {}}"#)
        let theme = try ThemeLoader.load(path: path)
        #expect(theme.name == "paper")
        #expect(!theme.usesColor)
        #expect(theme.style(for: .hit).fg == .default)
    }

    @Test("values with / or ending in .json are paths, others are built-in names")
    func pathOrName() {
        #expect(ThemeLoader.isPath("./mine.json"))
        #expect(ThemeLoader.isPath("themes/dark"))
        #expect(ThemeLoader.isPath("mine.json"))
        #expect(!ThemeLoader.isPath("solarized-dark"))
        #expect(!ThemeLoader.isPath("json"))
    }

    @Test("resolve: no option is default, a name is a built-in, a path is a file")
    func resolve() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("mine.json", #"{"name": "mine", "roles": {}}"#)
        #expect(try ThemeLoader.resolve(option: nil, environment: [:]).name == "default")
        #expect(try ThemeLoader.resolve(option: "light", environment: [:]).name == "light")
        #expect(try ThemeLoader.resolve(option: path, environment: [:]).name == "mine")
        #expect(throws: ThemeError.fileNotFound(path: "nowhere.json")) {
            try ThemeLoader.resolve(option: "nowhere.json", environment: [:])
        }
    }

    @Test("NO_COLOR selects mono whatever its value, even empty, and over --theme", arguments: ["", "1", "no"])
    func noColor(value: String) throws {
        #expect(try ThemeLoader.resolve(option: nil, environment: ["NO_COLOR": value]).name == "mono")
        #expect(try ThemeLoader.resolve(option: "light", environment: ["NO_COLOR": value]).name == "mono")
        #expect(ThemeLoader.noColorRequested(in: ["NO_COLOR": value]))
        #expect(!ThemeLoader.noColorRequested(in: ["COLOR": value]))
    }

    @Test("built-in themes load from any working directory")
    func anyDirectory() throws {
        let folder = try TemporaryDirectory()
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        #expect(FileManager.default.changeCurrentDirectoryPath(folder.path))
        for name in ThemeLoader.builtInNames {
            #expect(try ThemeLoader.resolve(option: name, environment: [:]).name == name)
        }
    }
}
