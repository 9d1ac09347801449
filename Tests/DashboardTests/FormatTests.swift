import Foundation
import Testing

@testable import Dashboard

@Suite("Numbers on screen")
struct FormatTests {
    @Test("fixed decimals read exactly as String(format:) writes them, halves and negatives included")
    func fixedMatchesFormatter() {
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 2.675, 9.95, 99.95, 1023.9, -0.01, -12.345, 1e14, 0.0005, 0.00049]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Double.random(in: -5000...5000, using: &generator)) }
        for _ in 0..<2000 { values.append(Double(Int.random(in: 0...100_000, using: &generator)) / 1000) }
        for value in values {
            for decimals in 0...3 {
                #expect(Format.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value) with \(decimals)")
            }
        }
        #expect(Format.fixed(.infinity, decimals: 1) == String(format: "%.1f", Double.infinity))
    }

    @Test("times, latencies, sizes and rates keep their shapes")
    func shapes() {
        #expect(Format.eventTime(7.34) == "0:07.3")
        #expect(Format.eventTime(754) == "12:34.0")
        #expect(Format.clock(3723) == "1:02:03")
        #expect(Format.clock(7) == "0:07")
        #expect(Format.latency(0.0004567) == "0.46ms")
        #expect(Format.latency(0.0042) == "4.2ms")
        #expect(Format.latency(0.25) == "250ms")
        #expect(Format.latency(3.21) == "3.2s")
        #expect(Format.latency(42) == "42s")
        #expect(Format.shortBytes(1300) == "1.3K")
        #expect(Format.shortBytes(34 << 20) == "34M")
        #expect(Format.bytes(812) == "812 B")
        #expect(Format.bytes(3_565_158) == "3.4 MiB")
        #expect(Format.percent(0.642) == "64.2%")
        #expect(Format.rate(12.34) == "12.3/s")
    }

    /// A TTL or age read from a log or an attached app can be any number: the conversion to
    /// whole seconds used to trap beyond `Int`.
    @Test("durations and clocks of any size or sign are written, not trapped on", arguments: [1e300, -1e300, 9.3e18, .infinity, .nan])
    func hugeDurations(seconds: Double) {
        let duration = Format.duration(seconds)
        let clock = Format.clock(seconds)
        let eventTime = Format.eventTime(seconds)
        if seconds.isFinite {
            // Held at a million years (3.2e13 s), the sign kept.
            #expect(duration == (seconds < 0 ? "-" : "") + "370370370d8h", "\(duration)")
        } else {
            #expect(duration == "–")
        }
        #expect(!clock.isEmpty && !eventTime.isEmpty)
    }

    @Test("staleness counts as the TTL rounded down: the first second past it is 1s, never 0s", arguments: [
        (-0.3, "1s"), (0, "1s"), (-1, "1s"), (-1.01, "2s"), (-45.99, "46s"), (-60.5, "1m1s"),
    ])
    func staleness(ttl: Double, expected: String) {
        #expect(Format.staleness(ttl) == expected)
    }
}
