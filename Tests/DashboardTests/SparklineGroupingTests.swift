import Testing
@testable import Dashboard

/// The sparkline's columns group whole seconds on fixed boundaries: grouped from the sliding
/// window's oldest second, every second regrouped the past and its bars and peak flipped with
/// no new traffic (a hunt of 27 November).
@Suite("Sparkline grouping")
struct SparklineGroupingTests {
    @Test("as the last minute slides second by second, the same seconds stay grouped together")
    func groupsStayPut() {
        for first in 50..<56 {
            // Requests at seconds 99, 100 and 102 of the session, in the window [first, first + 59].
            let buckets = (first..<(first + 60)).map { second -> TimelineBucket in
                var bucket = TimelineBucket()
                bucket.requests = [99: 5, 100: 8, 102: 3][second] ?? 0
                return bucket
            }
            let (merged, perColumn, sizes) = buckets.merged(toAtMost: 20, firstIndex: first)
            #expect(perColumn == 3)
            // Whole groups but the newest, still filling: a rate over its own seconds.
            #expect(sizes.dropLast().allSatisfy { $0 == 3 } && (1...3).contains(sizes.last ?? 0), "\(sizes)")
            #expect(merged.count <= 20)
            // Seconds 99–101 in one column, 102–104 in the next, whatever the window's start.
            #expect(merged.map(\.requests).filter { $0 > 0 } == [13, 3], "window from \(first): \(merged.map(\.requests))")
            #expect(merged.reduce(0) { $0 + $1.requests } == 16)
        }
    }
}
