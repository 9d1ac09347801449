// MARK: - What tests and the dashboard can observe and switch

extension DemoOrigin {
    /// How many requests were made for `path`, which is the request target exactly as sent,
    /// query included (`/max-age/60?id=3` and `/max-age/60` count apart). Every request counts,
    /// including 304s, errors and requests during an outage.
    public func requestCount(path: String) -> Int {
        counter.count(target: path)
    }

    /// How many requests were made in all since start or ``resetCounts()``.
    public func totalRequestCount() -> Int {
        counter.total()
    }

    /// Every target's request count since start or ``resetCounts()``.
    public func requestCounts() -> [String: Int] {
        counter.snapshot()
    }

    /// Forgets all counts and remembered request headers. It does not reset item versions or
    /// which `/sie` targets have already been answered.
    public func resetCounts() {
        counter.reset()
    }

    /// The header fields of the latest request for `path` (target as sent, query included), in
    /// the order received, or `nil` when there was none. Lets a test prove that a client sent
    /// `If-None-Match` or `If-Modified-Since`.
    public func lastRequestHeaders(path: String) -> [(name: String, value: String)]? {
        counter.lastHeaders(target: path)
    }

    /// Switches a simulated outage on or off. While on, every request (still counted) gets
    /// `503 Service Unavailable` with `Retry-After: 5` and no caching headers.
    public func setOutage(_ on: Bool) {
        state.isOutage = on
    }

    /// Whether a simulated outage is on.
    public var isOutage: Bool {
        state.isOutage
    }
}
