import Testing
@testable import TerminalUI

/// The positioned JSON parser behind theme error messages.
@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONNode {
        try JSONParser.parse(Array(text.utf8))
    }

    private func syntaxError(_ text: String) -> JSONParser.SyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("values and their line/column positions")
    func positions() throws {
        let node = try parse("{\n  \"a\": [1, -2.5e1, true],\n  \"東京\": \"x\\u00e9\\ud83d\\ude00\\n\", \"n\": null\n}")
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["a", "東京", "n"])
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(members[1].keyPosition == SourcePosition(line: 3, column: 3))
        #expect(members[1].value.position == SourcePosition(line: 3, column: 9))   // columns count scalars
        #expect(members[2].value.position == SourcePosition(line: 3, column: 39))   // escapes count as written
        guard case .array(let items) = members[0].value.value, case .number(let number) = items[1].value,
              case .string(let text) = members[1].value.value else {
            Issue.record("unexpected shapes")
            return
        }
        #expect(number == -25)
        #expect(text == "xé😀\n")
        #expect(items[2].typeDescription == "true or false")
    }

    /// Columns are counted on from the last value on the line (a theme written on one line of
    /// 20,000 keys took minutes when each position was counted from the line's start).
    @Test("positions on one long line, and after a line break, are the columns of each key")
    func positionsOnOneLine() throws {
        let keys = (0..<2_000).map { "\"k\($0)é\": 1" }
        let node = try parse("{" + keys.joined(separator: ", ") + ",\n \"last\": 2}")
        let members = try #require(node.members)
        var column = 2
        for (index, member) in members.dropLast().enumerated() {
            #expect(member.keyPosition == SourcePosition(line: 1, column: column), "key \(index)")
            column += keys[index].unicodeScalars.count + 2
        }
        #expect(members.last?.keyPosition == SourcePosition(line: 2, column: 2))
    }

    @Test("duplicate keys are kept in order for the caller to report")
    func duplicates() throws {
        let members = try #require(try parse("{\"a\": 1, \"a\": 2}").members)
        #expect(members.count == 2)
    }

    @Test("syntax errors name the line and column and what was expected", arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1, "unexpected '}', expected a quoted key"),
        ("{\"hit\": {\"fg\": gren}}", 1, 16, "unexpected word \"gren\", expected a value (put strings in double quotes)"),
        ("{\"a\" 1}", 1, 6, "unexpected '1', expected ':' after key \"a\""),
        ("{\"a\": 1", 1, 8, "unexpected end of file, expected ',' or '}'"),
        ("[1 2]", 1, 4, "unexpected '2', expected ',' or ']'"),
        ("{\"a\": \"line\nbreak\"}", 1, 12, "control character in a string (write it as an escape such as \\n)"),
        ("{\"a\": \"open", 1, 7, "unterminated string (missing closing '\"')"),
        ("{} {}", 1, 4, "unexpected '{' after the JSON value"),
        ("", 1, 1, "unexpected end of file, expected a value"),
        ("[01]", 1, 3, "unexpected '1', expected ',' or ']'"),
        ("[1.]", 1, 4, "expected a digit after '.'"),
        ("[\"\\q\"]", 1, 4, "unknown escape \\q (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
        ("[\"\\ud800\"]", 1, 9, "lone surrogate \\ud800 in a string"),
        ("[tru]", 1, 2, "unexpected word \"tru\", expected a value (put strings in double quotes)"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        let error = syntaxError(text)
        #expect(error == JSONParser.SyntaxError(message: message, position: SourcePosition(line: line, column: column)))
    }

    @Test("invalid UTF-8 inside a string is a syntax error, a BOM is skipped")
    func encoding() throws {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(node.members?.isEmpty == true)
        #expect(node.position == SourcePosition(line: 1, column: 1))
    }

    @Test("absurd nesting is refused instead of overflowing the stack")
    func depth() {
        let error = syntaxError(String(repeating: "[", count: 500))
        #expect(error?.message == "nesting deeper than 100 levels")
    }
}
