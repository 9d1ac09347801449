extension Duration {
    /// The duration in seconds, as the rules, events and messages count time.
    public var inSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
