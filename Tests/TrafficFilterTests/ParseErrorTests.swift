import Testing
import TrafficFilter

@Suite("Filter parse errors")
struct ParseErrorTests {
    @Test("every error names its column and what was expected", arguments: [
        ("", 1, "column 1: expected a term: a field such as outcome:miss, plain text, ! or (, found the end of the filter"),
        ("   ", 4, "column 4: expected a term: a field such as outcome:miss, plain text, ! or (, found the end of the filter"),
        ("outcome:miss &", 15, "column 15: expected a term: a field such as outcome:miss, plain text, ! or (, found the end of the filter"),
        ("outcome:miss | | bg", 16, "column 16: expected a term: a field such as outcome:miss, plain text, ! or (, found \"|\""),
        ("& bg", 1, "column 1: expected a term: a field such as outcome:miss, plain text, ! or (, found \"&\""),
        ("!", 2, "column 2: expected a term: a field such as outcome:miss, plain text, ! or (, found the end of the filter"),
        ("(bg", 4, "column 4: expected \")\" to close the \"(\" at column 1, found the end of the filter"),
        ("(bg | (status:200)", 19, "column 19: expected \")\" to close the \"(\" at column 1, found the end of the filter"),
        ("bg)", 3, "column 3: expected & or | and another term, or the end of the filter, found \")\""),
        ("()", 2, "column 2: expected a term: a field such as outcome:miss, plain text, ! or (, found \")\""),
        ("outcom:miss", 1,
         "column 1: expected a field (outcome, reason, status, method, url, host, ttl, age, size, tier, tag, h:NAME, bg, instance) or \"quoted text\", found \"outcom\""),
        ("items=5", 1,
         "column 1: expected a field (outcome, reason, status, method, url, host, ttl, age, size, tier, tag, h:NAME, bg, instance) or \"quoted text\", found \"items\""),
        ("outcome:great", 9,
         "column 9: expected an outcome (hit, stale, revalidated, modified, miss, bypass, error), found \"great\""),
        ("outcome>miss", 8, "column 8: expected : or =, found \">\" after outcome"),
        ("outcome", 8, "column 8: expected an operator after outcome (: or =), found the end of the filter"),
        ("status 500", 8, "column 8: expected an operator after status (:, =, <, <=, > or >=), found \"5\""),
        ("status>=", 9, "column 9: expected a value after status>=, found the end of the filter"),
        ("status>=abc", 9, "column 9: expected a whole number (a status code), found \"abc\""),
        // Both were taken, and matched nothing.
        ("status=200.5", 8, "column 8: expected a whole number (a status code), found \"200.5\""),
        ("status>99999999999999999999", 8, "column 8: expected a whole number (a status code), found \"99999999999999999999\""),
        ("status~5..", 7, "column 7: expected :, =, <, <=, > or >=, found \"~\" after status"),
        ("reason<3", 7, "column 7: expected :, = or ~, found \"<\" after reason"),
        ("ttl<30x", 7, "column 7: expected a unit (s m h d), found \"x\""),
        ("ttl<s", 5, "column 5: expected a duration: a number with an optional unit (s m h d), found \"s\""),
        ("ttl<1d3hx", 8, "column 8: expected a unit (s m h d), found \"hx\""),
        ("ttl<1d.h", 7, "column 7: expected a number, found \".h\""),
        ("size>1PB", 7, "column 7: expected a unit (B KB MB GB TB), found \"PB\""),
        ("size>1M2K", 8, "column 8: expected the end of a size, found \"2K\""),
        ("tier:ssd", 6, "column 6: expected a tier (memory, disk, both), found \"ssd\""),
        ("reason:\"no-store", 8, "column 8: expected a closing \" for the text that starts here"),
        ("bg & \"abc", 6, "column 6: expected a closing \" for the text that starts here"),
        ("bg:true", 3, "column 3: expected nothing after bg (it stands alone: bg, !bg), found \":\" after bg"),
        ("h", 2, "column 2: expected \":\" and a header field name after h (h:cache-control), found the end of the filter"),
        ("h:", 3, "column 3: expected a header field name after h: (h:cache-control), found the end of the filter"),
        ("h:cache-control~", 17, "column 17: expected a value after h:cache-control~, found the end of the filter"),
    ])
    func errors(expression: String, column: Int, message: String) throws {
        let error = try #require(parseError(expression), "\(expression) parsed")
        #expect(error.column == column, "\(expression)")
        #expect(error.description == message, "\(expression)")
    }

    @Test("a regular expression that does not compile is an error at its column")
    func badRegex() throws {
        let error = try #require(parseError("bg & url~\"(unclosed\""))
        guard case .invalidRegex(let column, let pattern, let problem) = error else {
            Issue.record("not a regex error: \(error)")
            return
        }
        #expect(column == 10)
        #expect(pattern == "(unclosed")
        #expect(!problem.isEmpty)
        #expect(error.description.hasPrefix("column 10: expected a regular expression ("))
    }

    /// 2,500 nested `(` overflowed the stack, in the command line's filter, the dashboard's
    /// prompt and a purge sent to an attach socket alike.
    @Test("nesting deeper than 100 levels, or more than 1,000 terms, is an error at the first one too many", arguments: [
        (String(repeating: "(", count: 5_000) + "bg" + String(repeating: ")", count: 5_000), 101,
         "column 101: expected at most 100 levels of ( and ! inside each other, found level 101"),
        (String(repeating: "!", count: 100_000) + "bg", 101, "column 101: expected at most 100 levels of ( and ! inside each other, found level 101"),
        (String(repeating: "bg ", count: 100_000), 3_001, "column 3001: expected at most 1000 terms in one filter, found term 1001"),
    ])
    func tooDeep(expression: String, column: Int, message: String) throws {
        let error = try #require(parseError(expression))
        #expect(error.column == column)
        #expect(error.description == message)
    }

    @Test("100 levels of nesting and 1,000 terms still parse and match")
    func deepestAllowed() throws {
        let nested = String(repeating: "(", count: 50) + String(repeating: "!", count: 50) + "bg" + String(repeating: ")", count: 50)
        #expect(parseError(nested) == nil)
        #expect(parseError(Array(repeating: "status:200", count: 1_000).joined(separator: " & ")) == nil)
    }

    @Test("the message parts: column, expected, found")
    func parts() throws {
        let error = try #require(parseError("outcome:great"))
        #expect(error == .invalidValue(
            column: 9, found: "great", expected: "an outcome (hit, stale, revalidated, modified, miss, bypass, error)"))
        #expect(error.found == "\"great\"")
        #expect(error.expected.hasPrefix("an outcome"))
    }

    @Test("random input never crashes: it parses or names a column inside it (or just past its end)")
    func fuzz() {
        let alphabet = Array("outcome:missttl<30s size>1MB h:x~y \"()!&|=<>~\\-.0123456789 bgtier:disk éß\t")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? " " })
            if let error = parseError(text) {
                #expect(error.column >= 1 && error.column <= text.count + 1, "\(text): \(error)")
                #expect(!error.description.isEmpty)
            }
        }
    }
}
