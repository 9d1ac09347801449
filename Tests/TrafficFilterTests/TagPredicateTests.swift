import TrafficFilter
import Testing

@Suite("tag: predicate")
struct TagPredicateTests {
    @Test("tag:NAME matches an entry carrying that tag exactly (case counts), never a request")
    func matching() throws {
        let entry = Row.entry.with { $0.filterTags = ["product-42", "Sale"] }
        #expect(try Filter("tag:product-42").matches(entry))
        #expect(try Filter("tag=Sale").matches(entry))
        #expect(try !Filter("tag:sale").matches(entry))
        #expect(try !Filter("tag:product").matches(entry), "a tag is matched whole, not as a substring")
        #expect(try !Filter("tag:product-42").matches(Row.miss), "requests have no tags")
        #expect(try Filter("!tag:x & tier:disk").matches(entry))
    }

    @Test("onlyTag is the tag of a filter that is one tag: predicate and nothing else")
    func onlyTag() throws {
        #expect(try Filter("tag:product-42").onlyTag == "product-42")
        #expect(try Filter("tag:a & size>1KB").onlyTag == nil)
        #expect(try Filter("url:a").onlyTag == nil)
    }

    @Test("tag takes : or =; a tag with a space or non-ASCII is explained at its column")
    func errors() {
        #expect(throws: FilterParseError.self) { try Filter("tag~x") }
        do {
            _ = try Filter("tag:\"a b\"")
            Issue.record("accepted a tag with a space")
        } catch {
            #expect(error.description == "column 5: expected a tag (a tag is visible ASCII without spaces; \"a b\" holds U+20), found \"a b\"")
        }
    }
}
