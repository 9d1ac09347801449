import TrafficFilter
import Testing

/// `instance:NAME`: the attached instance a row belongs to, when a dashboard watches several.
@Suite("The instance predicate")
struct InstancePredicateTests {
    static let web2 = Row.miss.with { $0.filterInstance = "web#2" }
    static let api = Row.entry.with { $0.filterInstance = "api" }

    @Test("`:` contains, `=` equals, `~` a regular expression; names ignore case", arguments: [
        ("instance:web", true, false),
        ("instance=web", false, false),
        ("instance=WEB#2", true, false),
        ("instance~^a", false, true),
        ("instance:api | instance:web", true, true),
        ("!instance:web", false, true),
        ("instance:web & outcome:miss", true, false),
    ])
    func matches(text: String, web2: Bool, api: Bool) throws {
        let filter = try Filter(text)
        #expect(filter.matches(Self.web2) == web2, "\(text) on web#2")
        #expect(filter.matches(Self.api) == api, "\(text) on api")
    }

    @Test("a row of a single watched process has no instance: instance:… never matches it, !instance:… always")
    func oneInstance() throws {
        #expect(try !Filter("instance:web").matches(Row.miss))
        #expect(try Filter("!instance:web").matches(Row.miss))
    }

    @Test("instance takes the text operators only, and completes as a field")
    func syntax() {
        #expect(throws: FilterParseError.self) { try Filter("instance>3") }
        #expect(FilterCompletion("inst").completed == "instance:")
        #expect(FilterField.instance.help.hasPrefix("instance:web"))
    }
}
