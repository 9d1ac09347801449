extension Duration {
    /// The duration in seconds, as the rules, events and messages count time.
    public var inSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, as NIO and swift-metrics count it; one beyond what an
    /// `Int64` holds (292 years) is `Int64.max` (or `.min`).
    public var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !overflowAgain else { return seconds < 0 ? .min : .max }
        return total
    }
}
