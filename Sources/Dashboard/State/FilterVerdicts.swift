import Synchronization
import TrafficFilter

/// A filter's verdict on each slot of a ``RequestLog``, with the revision of the record it was
/// made on: a record whose revision is unchanged is not matched again. One filter at a time;
/// asking with another starts over.
final class FilterVerdicts: Sendable {
    private struct State {
        var filter: Filter?
        /// The revision each verdict was made on; 0 (no record has it) until one is made.
        var revisions: [UInt64] = []
        var matches: [Bool] = []
    }

    private let state = Mutex(State())

    /// The serials in `serials` whose verdict is a match, ascending; `evaluate` decides a serial
    /// whose slot's revision (`revisions[serial % capacity]`) differs from the remembered one.
    func serials(
        matching filter: Filter, in serials: Range<Int>, capacity: Int, revisions: [UInt64], evaluate: (Int) -> Bool
    ) -> [Int] {
        state.withLock { state in
            if state.filter != filter || state.revisions.count != capacity {
                state = State(
                    filter: filter, revisions: Array(repeating: 0, count: capacity), matches: Array(repeating: false, count: capacity))
            }
            var matching: [Int] = []
            for serial in serials {
                let slot = serial % capacity
                if state.revisions[slot] != revisions[slot] {
                    state.matches[slot] = evaluate(serial)
                    state.revisions[slot] = revisions[slot]
                }
                if state.matches[slot] { matching.append(serial) }
            }
            return matching
        }
    }
}
