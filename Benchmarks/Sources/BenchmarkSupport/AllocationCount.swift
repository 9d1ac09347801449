/// Allocations per operation of one measured path: one figure per batch of operations, and
/// the verdict line against a budget. The counting itself lives in AllocationBenchmarks (the
/// only executable that loads a malloc interposer), so the timing benchmarks stay unhooked.
public struct AllocationCount: Sendable {
    /// What was measured, e.g. `fresh hit through the client`.
    public let name: String
    /// Allocations per operation, one value per batch, sorted ascending.
    public let perOperation: [Double]

    /// Creates a figure from per-batch counts (sorted here).
    public init(name: String, perOperation: [Double]) {
        self.name = name
        self.perOperation = perOperation.sorted()
    }

    /// The median over the batches, rounded to a whole allocation: what the budget is held to.
    public var median: Int {
        guard !perOperation.isEmpty else { return 0 }
        return Int(perOperation[perOperation.count / 2].rounded())
    }

    /// The lowest and highest batch, for the `info` line: `57.0–57.1`.
    public var spread: String {
        guard let low = perOperation.first, let high = perOperation.last else { return "no batches" }
        return "\(Self.format(low))–\(Self.format(high))"
    }

    private static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Prints the batches' spread, then `PASS fresh hit through the client: 9 allocations per op ≤ 12`,
/// and returns whether the median is within `budget`.
public func check(_ count: AllocationCount, budget: Int) -> Bool {
    let pass = count.median <= budget
    print("info \(count.name): batches \(count.spread) per op")
    print("\(pass ? "PASS" : "FAIL") \(count.name): \(count.median) allocations per op ≤ \(budget)")
    return pass
}
