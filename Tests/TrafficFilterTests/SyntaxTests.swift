import Testing
import TrafficFilter

@Suite("Filter syntax")
struct SyntaxTests {
    /// A miss that is a background refresh with status 200: each case below reads differently
    /// under another precedence.
    static let row = Row.miss.with { $0.filterIsBackground = true }

    @Test("precedence: ! binds tighter than &, & tighter than |", arguments: [
        // (!bg & outcome:hit) | status:200 → true; !(bg & …) | … would also be true, so:
        ("!bg & outcome:hit | status:200", true),
        ("!bg & (outcome:hit | status:200)", false),
        ("!(bg & outcome:hit) | status:500", true),
        ("!bg | outcome:miss & status:500", false),      // !bg | (miss & 500)
        ("(!bg | outcome:miss) & status:500", false),
        ("(!bg | outcome:miss) & status:200", true),
        ("outcome:miss | outcome:hit & status:500", true), // miss | (hit & 500)
        ("(outcome:miss | outcome:hit) & status:500", false),
        ("!!bg", true),
        ("! ! ! bg", false),
    ])
    func precedence(expression: String, expected: Bool) throws {
        #expect(try matches(expression, Self.row) == expected, "\(expression)")
    }

    @Test("a space between terms means &; && and || are & and |", arguments: [
        ("outcome:miss status:200", true), ("outcome:miss status:500", false),
        ("outcome:miss && status:200", true), ("outcome:hit || status:200", true),
        ("  outcome:miss   &   bg  ", true), ("status >= 200", true), ("status >= 201", false),
        ("(outcome:miss)(bg)", true),
    ])
    func joining(expression: String, expected: Bool) throws {
        #expect(try matches(expression, Self.row) == expected, "\(expression)")
    }

    @Test("quoting: spaces, operators and escapes inside quotes", arguments: [
        ("reason:\"not in cache\"", true),
        ("reason:\"not in cache\" & bg", true),
        ("reason:\"in (cache\"", false),
        ("url~\"items|nothing\"", true),
        ("url~\"(v1|v2)/items\"", true),
        ("reason:\"say \\\"hi\\\"\"", false),
        ("\"\"", true),  // the empty text is in every URL
    ])
    func quoting(expression: String, expected: Bool) throws {
        #expect(try matches(expression, Self.row) == expected, "\(expression)")
    }

    @Test("an escaped quote is a quote; other escapes stay for the regex")
    func escapes() throws {
        let row = Row(filterReason: "say \"hi\" \\ there")
        #expect(try matches("reason:\"say \\\"hi\\\"\"", row))
        #expect(try matches("reason:\"\\\\ there\"", row))
        #expect(try matches("reason~\"age \\d+\"", Row(filterReason: "age 42")), "\\d reaches the regex")
    }

    @Test("field names ignore case; plain text that looks like a URL is text")
    func names() throws {
        #expect(try matches("OUTCOME:miss & Status:200", Self.row))
        #expect(try matches("https://api.example.com", Self.row))
        #expect(try matches("\"api.example.com:8443\"", Self.row))
    }

    @Test("two filters are equal when their texts are")
    func equality() throws {
        #expect(try Filter("bg") == Filter("bg"))
        #expect(try Filter("bg") != Filter("bg "))
        #expect(try Filter("status>=500").text == "status>=500")
    }
}
