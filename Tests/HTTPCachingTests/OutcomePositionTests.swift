import HTTPCaching
import Testing

@Suite("Outcome positions")
struct OutcomePositionTests {
    @Test("each outcome's position is its place in allCases, so tables by outcome never mix two up")
    func positionsFollowAllCases() {
        for (index, outcome) in CacheOutcome.allCases.enumerated() {
            #expect(outcome.position == index, "\(outcome)")
        }
    }
}
