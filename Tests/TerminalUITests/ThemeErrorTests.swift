import TestFixtures
import Foundation
import Testing
@testable import TerminalUI

/// Every way a theme can be wrong, with the message the user sees (file, line and column).
@Suite("Theme errors")
struct ThemeErrorTests {
    /// Writes `contents` to a theme file and returns the message loading it fails with.
    private func message(loading contents: String, name: String = "mine.json") throws -> String {
        let folder = try TemporaryDirectory()
        let path = try folder.write(name, contents)
        do {
            _ = try ThemeLoader.load(path: path)
            Issue.record("loading succeeded")
            return ""
        } catch {
            return error.description.replacingOccurrences(of: path, with: name)
        }
    }

    @Test("an unknown colour names the file, line, column, value and role")
    func unknownColor() throws {
        let text = """
            {
              "name": "mine",
              "colors": true,
              "roles": {
                "text": {},
                "miss": { "fg": "red" },
                "hit": { "fg": "gren", "bold": true }
              }
            }
            """
        #expect(try message(loading: text) == "mine.json: line 7, column 20: unknown colour \"gren\" for role \"hit\" "
            + "(expected a name such as green, a number 0-255 or #rrggbb)")
        #expect(try message(loading: #"{"roles": {"miss": {"bg": 300}}}"#)
            == "mine.json: line 1, column 27: unknown colour 300 for role \"miss\" (expected a name such as green, a number 0-255 or #rrggbb)")
        #expect(try message(loading: #"{"roles": {"miss": {"bg": 2.5}}}"#).contains("unknown colour 2.5 for role \"miss\""))
    }

    @Test("a syntax error points at the offending character")
    func syntax() throws {
        let text = """
            {
              "roles": {
                "hit": { "fg": gren }
              }
            }
            """
        #expect(try message(loading: text) == "mine.json: line 3, column 20: JSON syntax error: "
            + "unexpected word \"gren\", expected a value (put strings in double quotes)")
        #expect(try message(loading: "{\n  \"roles\": {},\n}\n")
            == "mine.json: line 3, column 1: JSON syntax error: unexpected '}', expected a quoted key")
    }

    @Test("an unknown role suggests the closest one and lists them all")
    func unknownRole() throws {
        let text = "{\n  \"roles\": {\n    \"hitt\": {}\n  }\n}"
        let shown = try message(loading: text)
        #expect(shown.hasPrefix("mine.json: line 3, column 5: unknown role \"hitt\" (did you mean \"hit\"? roles are background, text, "))
        #expect(shown.hasSuffix("search-match)"))
        #expect(try message(loading: #"{"roles": {"banana": {}}}"#).hasPrefix(#"mine.json: line 1, column 12: unknown role "banana" (roles are background"#))
        #expect(ThemeRole.closest(to: "ttl_expired") == .ttlExpired)
        #expect(ThemeRole.closest(to: "Gauge-Emty") == .gaugeEmpty)
    }

    @Test("wrong JSON types say what was expected and what was found", arguments: [
        (#"{"colors": "yes", "roles": {}}"#, #"mine.json: line 1, column 12: "colors" must be true or false, not a string"#),
        (#"{"roles": {"hit": "green"}}"#, #"mine.json: line 1, column 19: "hit" must be an object such as {"fg": "green", "bold": true}, not a string"#),
        (#"{"roles": {"hit": {"bold": 1}}}"#, #"mine.json: line 1, column 28: "hit.bold" must be true or false, not a number"#),
        (#"{"roles": {"hit": {"fg": true}}}"#, ##"mine.json: line 1, column 26: "hit.fg" must be a colour (a name, a number 0-255 or "#rrggbb"), not true or false"##),
        (#"{"name": 7, "roles": {}}"#, #"mine.json: line 1, column 10: "name" must be a string, not a number"#),
        (#"{"roles": []}"#, #"mine.json: line 1, column 11: "roles" must be an object of role styles, not an array"#),
    ])
    func wrongTypes(text: String, expected: String) throws {
        #expect(try message(loading: text) == expected)
    }

    @Test("unknown keys list the keys that are allowed")
    func unknownKeys() throws {
        #expect(try message(loading: #"{"roles": {"hit": {"fgg": "red"}}}"#)
            == #"mine.json: line 1, column 20: unknown key "fgg" in role "hit" (expected fg, bg, bold, dim, underline, reverse)"#)
        #expect(try message(loading: "{\n\"rolse\": {}}")
            == #"mine.json: line 2, column 1: unknown key "rolse" in the theme (expected name, description, colors, roles)"#)
    }

    @Test("a role or key written twice is reported at the second with the first line")
    func duplicates() throws {
        #expect(try message(loading: "{\"roles\": {\n \"hit\": {},\n \"hit\": {}}}")
            == #"mine.json: line 3, column 2: "hit" is written twice (first on line 2); keep one"#)
        #expect(try message(loading: #"{"roles": {"hit": {"fg": "red", "fg": "blue"}}}"#)
            == #"mine.json: line 1, column 33: "hit.fg" is written twice (first on line 1); keep one"#)
    }

    @Test("JSON that is not a theme is recognised as such")
    func notATheme() throws {
        #expect(try message(loading: "[1, 2]")
            == #"mine.json: line 1, column 1: not a theme file: the file holds an array (expected {"name": …, "roles": {…}})"#)
        #expect(try message(loading: "\n  {\"name\": \"x\"}")
            == #"mine.json: line 2, column 3: not a theme file: it has no "roles" object (expected {"name": …, "roles": {…}})"#)
    }

    @Test("missing and unreadable files, and unknown names")
    func files() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.path + "/absent.json"
        #expect(throws: ThemeError.fileNotFound(path: missing)) { try ThemeLoader.load(path: missing) }
        #expect(ThemeError.fileNotFound(path: "x.json").description
            == #"theme file "x.json" not found (check the path, or use a built-in theme name)"#)
        let directory = folder.path + "/dir.json"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(throws: ThemeError.unreadable(path: directory, reason: "it is a directory")) {
            try ThemeLoader.resolve(option: directory, environment: [:])
        }
        #expect(throws: ThemeError.unknownTheme(name: "solarised", builtIn: ThemeLoader.builtInNames)) {
            try ThemeLoader.resolve(option: "solarised", environment: [:])
        }
        #expect(ThemeError.unknownTheme(name: "solarised", builtIn: ThemeLoader.builtInNames).description
            == #"unknown theme "solarised": built-in themes are default, light, solarized-dark, high-contrast, mono; "#
            + #"to load a file, pass a path that contains "/" or ends in ".json""#)
    }

    /// A 60 MB file took 36 s to read before the dashboard started.
    @Test("a theme file over 1 MiB is refused with its size, before it is read")
    func tooLarge() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("huge.json", #"{"name": ""# + String(repeating: "x", count: 1 << 20) + #""}"#)
        #expect(throws: ThemeError.unreadable(path: path, reason: "it is 1048588 bytes, and a theme file may have at most 1048576 (1 MiB)")) {
            try ThemeLoader.load(path: path)
        }
    }

    @Test("hostile text from a theme file cannot reach the terminal through an error message")
    func hostileText() throws {
        let shown = try message(loading: "{\"roles\": {\"\\u001b[2J\\u202e\": {}}}")
        #expect(shown.contains(#"unknown role "\e[2J\u{202e}""#))
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    }
}
