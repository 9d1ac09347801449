import BenchmarkSupport

/// Verdicts for samples timed by hand (where `measure` cannot wrap the work, e.g. opening a
/// store that must be closed between samples), in the same format as `check`.
enum Figures {
    static func median(_ samples: [Double]) -> Double { BenchmarkSupport.median(samples) }

    /// `PASS name: median 210.00 ms ≤ 300.00 ms (5 samples, min …, max …)`
    static func check(_ name: String, _ samples: [Double], atMost limit: Double) -> Bool {
        let value = median(samples)
        let pass = value <= limit
        print(
            "\(pass ? "PASS" : "FAIL") \(name): median \(Measurement.format(value)) ≤ \(Measurement.format(limit)) (\(samples.count) samples, min \(Measurement.format(samples.min() ?? .nan)), max \(Measurement.format(samples.max() ?? .nan)))"
        )
        return pass
    }

    /// `name: median … (n samples)`
    static func summary(_ name: String, _ samples: [Double]) -> String {
        "\(name): median \(Measurement.format(median(samples))) (\(samples.count) samples)"
    }
}
