@testable import SharedTier
import Testing

@Suite("Shared tier: when a writer looks whether the table is over its bound")
struct CapacityCheckScheduleTests {
    /// `schedule.wrote(size)` (a mutating call cannot stand inside `#expect`).
    private static func write(_ size: Int, to schedule: inout CapacityCheckSchedule) -> Bool {
        schedule.wrote(size)
    }

    @Test("the first write looks; then a look is due once 1/64 of the capacity has been written since the last began")
    func looksAreSpacedByBytesWritten() {
        var schedule = CapacityCheckSchedule(capacity: 64_000)
        #expect(schedule.interval == 1_000)
        #expect(Self.write(10, to: &schedule), "the first write")
        schedule.looking()
        #expect(!Self.write(400, to: &schedule))
        #expect(!Self.write(500, to: &schedule))
        #expect(Self.write(100, to: &schedule), "1,000 bytes since the look began")
        schedule.looking()
        #expect(!Self.write(999, to: &schedule))
        #expect(schedule.looks == 2)
    }

    @Test("a due look that could not run stays due; one that could not finish makes the next write look")
    func lostLooksAreNotLost() {
        var schedule = CapacityCheckSchedule(capacity: 64_000)
        schedule.looking()
        #expect(Self.write(1_200, to: &schedule))
        // Another pass was under way: nothing began, so the next write is still due.
        #expect(Self.write(1, to: &schedule))
        schedule.looking()
        #expect(!Self.write(5, to: &schedule))
        schedule.unfinished()
        #expect(Self.write(1, to: &schedule), "the pass failed or stopped at its round limit")
    }

    @Test("a tiny capacity looks at every write")
    func tinyCapacity() {
        var schedule = CapacityCheckSchedule(capacity: 10)
        #expect(schedule.interval == 1)
        for _ in 0..<3 {
            #expect(Self.write(1, to: &schedule))
            schedule.looking()
        }
    }
}
