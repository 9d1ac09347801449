import HTTPCaching
import HTTPTypes
import Testing

@Suite("Surrogate-Key tags")
struct SurrogateKeysTests {
    @Test("tags are split on spaces (any run of them, tabs too), in order, each once")
    func splitting() {
        #expect(SurrogateKeys.parse(["product-42  category/shoes\tproduct-42"]) == ["product-42", "category/shoes"])
        #expect(SurrogateKeys.parse(["a b", "c a"]) == ["a", "b", "c"])
        #expect(SurrogateKeys.parse(["", "   "]) == [])
    }

    @Test("a character outside visible ASCII separates tags, as a space does")
    func nonASCIISeparates() {
        #expect(SurrogateKeys.parse(["caf\u{E9}x y"]) == ["caf", "x", "y"])
    }

    @Test("at most 64 tags are kept, the first ones; the rest are ignored, not an error")
    func countLimit() {
        let value = (0..<100).map { "t\($0)" }.joined(separator: " ")
        let tags = SurrogateKeys.parse([value])
        #expect(tags.count == SurrogateKeys.maximumCount)
        #expect(tags.first == "t0")
        #expect(tags.last == "t63")
    }

    @Test("a tag longer than 256 bytes is left out; one of exactly 256 is kept")
    func lengthLimit() {
        let long = String(repeating: "x", count: 257)
        let longest = String(repeating: "y", count: 256)
        #expect(SurrogateKeys.parse(["a \(long) \(longest) b"]) == ["a", longest, "b"])
    }

    @Test("the tags of a field in header fields, every field line")
    func fromFields() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("Surrogate-Key")!, value: "one two"))
        fields.append(HTTPField(name: HTTPField.Name("Surrogate-Key")!, value: "three"))
        #expect(SurrogateKeys.tags(in: fields, fieldName: HTTPField.Name("Surrogate-Key")!) == ["one", "two", "three"])
        #expect(SurrogateKeys.tags(in: fields, fieldName: HTTPField.Name("Cache-Tag")!) == [])
    }

    @Test("a tag asked for by a user: empty, too long, or with a space or non-ASCII is explained")
    func problems() {
        #expect(SurrogateKeys.problem(with: "product-42") == nil)
        #expect(SurrogateKeys.problem(with: "") == "a tag must not be empty")
        #expect(SurrogateKeys.problem(with: String(repeating: "x", count: 300)) == "a tag is at most 256 bytes (this one is 300)")
        #expect(SurrogateKeys.problem(with: "a b") == "a tag is visible ASCII without spaces; \"a b\" holds U+20")
        #expect(SurrogateKeys.problem(with: "caf\u{E9}") == "a tag is visible ASCII without spaces; \"caf\u{E9}\" holds U+E9")
    }
}
