import CoreMetrics
import HTTPCaching
import Prometheus
import Synchronization

/// One series of a latency histogram in Prometheus' text format, recorded with two atomic adds
/// and no lock: the count of the one bucket the value falls in, and the sum.
///
/// swift-prometheus' `Histogram` takes a lock and adds to every bucket at or above the value
/// (16 for a fresh hit under ``CacheMetrics/latencyBuckets``) on each record; on a fresh hit
/// of about 2 µs that was most of what metrics cost (docs/metrics.md). Here each bucket counts
/// only its own values, and a scrape adds them up into Prometheus' cumulative buckets. The
/// `+Inf` bucket and `_count` are that same total, so a scrape is always consistent with
/// itself; `_sum` is read apart and may include a value whose bucket the scrape missed, as
/// with any lock-free histogram.
final class PrometheusLatencyHistogram: TimerHandler, @unchecked Sendable {
    /// The metric's name, e.g. `cachescope_request_duration_seconds`.
    let name: String
    /// The series' labels, rendered (`outcome="hit"`), without braces; empty for none.
    let renderedLabels: String
    /// The buckets' upper bounds in nanoseconds, ascending.
    private let bounds: [Int64]
    /// Each bound as its `le` label, as swift-prometheus writes it (`0.0001`, `10.0`).
    private let boundTexts: [String]
    /// `bounds.count + 1` counts (the last for values above every bound), then the sum in
    /// nanoseconds. Allocated once and never moved, as atomics need; freed in `deinit`.
    /// (`@unchecked Sendable` for this pointer: every access through it is atomic.)
    private let slots: UnsafeMutablePointer<Atomic<Int>>

    /// - Parameters:
    ///   - buckets: upper bounds, in any order; duplicates are merged.
    init(name: String, labels: [(String, String)], buckets: [Duration]) {
        self.name = name
        renderedLabels = Self.render(labels)
        let sorted = Array(Set(buckets)).sorted()
        bounds = sorted.map(\.inNanoseconds)
        boundTexts = sorted.map(\.bucketRepresentation)
        let slotCount = sorted.count + 2
        slots = .allocate(capacity: slotCount)
        for index in 0..<slotCount { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: bounds.count + 2)
        slots.deallocate()
    }

    /// Counts one value (a negative one as 0).
    func recordNanoseconds(_ duration: Int64) {
        let value = max(0, duration)
        var bucket = 0
        // Most values are hits, below the first bound: one comparison.
        while bucket < bounds.count, value > bounds[bucket] { bucket += 1 }
        slots[bucket].wrappingAdd(1, ordering: .relaxed)
        slots[bounds.count + 1].wrappingAdd(Int(truncatingIfNeeded: value), ordering: .relaxed)
    }

    /// Appends the series' sample lines: one `_bucket` per bound and `+Inf`, `_sum`, `_count`.
    func emit(into text: inout String) {
        let labelPrefix = renderedLabels.isEmpty ? "" : renderedLabels + ","
        var cumulative = 0
        for (index, bound) in boundTexts.enumerated() {
            cumulative += slots[index].load(ordering: .relaxed)
            text += "\(name)_bucket{\(labelPrefix)le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += slots[bounds.count].load(ordering: .relaxed)
        // A sum past Int.max (292 years of latency) wraps: shown as Int.max, never negative.
        let nanoseconds = slots[bounds.count + 1].load(ordering: .relaxed)
        let sum = Duration.nanoseconds(nanoseconds < 0 ? .max : nanoseconds).bucketRepresentation
        let braced = renderedLabels.isEmpty ? "" : "{\(renderedLabels)}"
        text += "\(name)_bucket{\(labelPrefix)le=\"+Inf\"} \(cumulative)\n"
        text += "\(name)_sum\(braced) \(sum)\n"
        text += "\(name)_count\(braced) \(cumulative)\n"
    }

    /// Labels as a series writes them between braces: `outcome="hit",tier="disk"`.
    static func render(_ labels: [(String, String)]) -> String {
        labels.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",")
    }

    /// A label value as the text format wants it: `\`, `"` and line feeds escaped byte by byte (a `\r\n` or a quote with a combining mark is one `Character`,
    /// but its line feed or quote must be escaped all the same).
    static func escaped(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether every label name is one Prometheus accepts (`[a-zA-Z_][a-zA-Z0-9_]*`) and none
    /// is `le`, which the buckets use. Others go to swift-prometheus, which rewrites them.
    static func acceptsLabels(_ labels: [(String, String)]) -> Bool {
        labels.allSatisfy { name, _ in
            guard name != "le", let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return name.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        }
    }
}
