extension Int {
    /// Adds `other`, stopping at `Int.max` (or `Int.min`) instead of trapping: for running
    /// totals of figures read from files and sockets (byte counts, sizes, counts), which a
    /// damaged or hostile input could make overflow.
    @inlinable public mutating func addSaturating(_ other: Int) {
        let (sum, overflow) = addingReportingOverflow(other)
        self = overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self + other`, stopping at `Int.max` (or `Int.min`) instead of trapping
    /// (``addSaturating(_:)``).
    @inlinable public func addingSaturating(_ other: Int) -> Int {
        var sum = self
        sum.addSaturating(other)
        return sum
    }
}
