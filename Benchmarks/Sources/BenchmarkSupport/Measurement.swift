import Foundation

/// One measured operation: its name, the per-operation durations of every sample, and the
/// figures the reports print.
public struct Measurement: Sendable {
    /// What was measured, e.g. `memory hit`.
    public let name: String
    /// Seconds per operation, one value per sample, sorted ascending.
    public let secondsPerOperation: [Double]

    /// Creates a measurement from per-operation durations (sorted here).
    public init(name: String, secondsPerOperation: [Double]) {
        self.name = name
        self.secondsPerOperation = secondsPerOperation.sorted()
    }

    /// The median seconds per operation.
    public var median: Double { percentile(0.5) }

    /// A percentile (0…1) of the per-operation durations.
    public func percentile(_ fraction: Double) -> Double {
        guard !secondsPerOperation.isEmpty else { return .nan }
        let index = min(secondsPerOperation.count - 1, Int((Double(secondsPerOperation.count - 1) * fraction).rounded()))
        return secondsPerOperation[index]
    }

    /// `memory hit: median 0.42 µs (p90 0.51 µs, 200 samples)`
    public var summary: String {
        "\(name): median \(Measurement.format(median)) (p90 \(Measurement.format(percentile(0.9))), \(secondsPerOperation.count) samples)"
    }

    /// Formats seconds with a unit that suits the size.
    public static func format(_ seconds: Double) -> String {
        if seconds < 1e-6 { return String(format: "%.0f ns", seconds * 1e9) }
        if seconds < 1e-3 { return String(format: "%.2f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }
}

/// Runs an operation in batches and records per-operation time for each batch.
///
/// ```swift
/// let m = measure("memory hit", samples: 200, iterations: 1000) { store.get(key) }
/// print(m.summary)
/// ```
public func measure(
    _ name: String, samples: Int = 100, iterations: Int = 1, warmup: Int = 3, _ body: () throws -> Void
) rethrows -> Measurement {
    let clock = ContinuousClock()
    var results: [Double] = []
    for sample in 0..<(samples + warmup) {
        let start = clock.now
        for _ in 0..<iterations { try body() }
        let elapsed = clock.now - start
        if sample >= warmup { results.append(elapsed.seconds / Double(iterations)) }
    }
    return Measurement(name: name, secondsPerOperation: results.sorted())
}

/// The async variant of ``measure(_:samples:iterations:warmup:_:)``.
public func measureAsync(
    _ name: String, samples: Int = 100, iterations: Int = 1, warmup: Int = 3, _ body: () async throws -> Void
) async rethrows -> Measurement {
    let clock = ContinuousClock()
    var results: [Double] = []
    for sample in 0..<(samples + warmup) {
        let start = clock.now
        for _ in 0..<iterations { try await body() }
        let elapsed = clock.now - start
        if sample >= warmup { results.append(elapsed.seconds / Double(iterations)) }
    }
    return Measurement(name: name, secondsPerOperation: results.sorted())
}

/// Prints a verdict line for a target: `PASS memory hit median 0.42 µs ≤ 1.00 µs`.
public func check(_ measurement: Measurement, atMost limit: Double) -> Bool {
    let pass = measurement.median <= limit
    print("\(pass ? "PASS" : "FAIL") \(measurement.name): median \(Measurement.format(measurement.median)) ≤ \(Measurement.format(limit))")
    return pass
}

/// Prints the ratio of two measurements taken in the same run.
public func ratio(_ a: Measurement, _ b: Measurement) -> Double {
    let value = a.median / b.median
    print(String(format: "ratio %@ / %@ = %.2f", a.name, b.name, value))
    return value
}

/// The resident set size of this process in bytes (Linux `/proc/self/statm`), or 0.
public func residentMemoryBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Peak resident set size (VmHWM) in bytes, or 0.
public func peakResidentMemoryBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter(\.isNumber)
        return (Int(digits) ?? 0) * 1024
    }
    return 0
}

extension Duration {
    /// The duration in seconds as a `Double`.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

/// The median of `values` (the upper one of an even count; `nan` when empty): for figures that
/// are not durations, such as the ratios of interleaved rounds.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}
