import Testing
import TrafficFilter

@Suite("Filter completion")
struct CompletionTests {
    @Test("Tab completes the field or value at the end", arguments: [
        ("out", "outcome:", ["outcome"]),
        ("status>=500 & out", "status>=500 & outcome:", ["outcome"]),
        ("!(me", "!(method:", ["method"]),
        ("b", "bg ", ["bg"]),
        ("t", "t", ["ttl", "tier", "tag"]),
        ("ti", "tier:", ["tier"]),
        ("outcome:mi", "outcome:miss ", ["miss"]),
        ("outcome:", "outcome:", ["hit", "stale", "revalidated", "modified", "miss", "bypass", "error"]),
        ("outcome:re", "outcome:revalidated ", ["revalidated"]),
        ("tier:d", "tier:disk ", ["disk"]),
        ("zzz", "zzz", []),
        ("status>5", "status>5", []),
        ("", "", ["outcome", "reason", "status", "method", "url", "host", "ttl", "age", "size", "tier", "tag", "h", "bg", "instance"]),
    ])
    func completes(text: String, completed: String, candidates: [String]) {
        let completion = FilterCompletion(text)
        #expect(completion.candidates == candidates, "\(text)")
        if candidates.count != 1 { #expect(completion.completed == completed, "\(text)") }
    }

    @Test("a unique value completes with a space after it")
    func uniqueValue() {
        #expect(FilterCompletion("outcome:re").completed == "outcome:revalidated ")
        #expect(FilterCompletion("OUTCOME:BY").completed == "OUTCOME:bypass ")
    }
}
