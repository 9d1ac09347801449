import CacheMetrics
public import CoreMetrics
public import Prometheus
import Foundation
import Synchronization

/// What `--metrics` serves, in Prometheus' text format, and the `MetricsFactory` that fills it.
///
/// ```swift
/// let exposition = CacheMetricsExposition()
/// let metrics = CacheMetrics(events: client.events, factory: exposition)
/// let page: String = exposition.text()   // what GET /metrics answers
/// ```
///
/// Counters and gauges are swift-prometheus', in ``registry``, each of ``CacheMetricName``'s
/// with its `# HELP` line (``CacheMetricName/help(for:)``). Serve ``text()``, not the registry
/// alone (it lacks the latency histograms), and make metrics with ``CacheMetricName``'s names
/// only through this factory: swift-prometheus stops the process when one name is registered
/// with two help texts (e.g. none, through a `PrometheusMetricsFactory` on the same registry). The two latency timers are
/// histograms of this type's own (``PrometheusLatencyHistogram``: two atomic adds a request instead of
/// swift-prometheus' lock and an add to each of 16 buckets), with ``CacheMetrics/latencyBuckets``,
/// written in the same format after the registry's metrics. Any other timer, counter or
/// recorder asked of this factory is swift-prometheus' as `PrometheusMetricsFactory` makes it.
public final class CacheMetricsExposition: MetricsFactory, Sendable {
    /// The counters and gauges (and anything else registered there, which is served too).
    public let registry: PrometheusCollectorRegistry
    private let prometheus: PrometheusMetricsFactory
    /// The latency histograms by metric name, in the order they were made.
    private let histograms = Mutex<[HistogramFamily]>([])

    /// The timers that become ``PrometheusLatencyHistogram``s, with ``CacheMetrics/latencyBuckets``.
    static let latencyTimers: Set<String> = [CacheMetricName.requestDuration, CacheMetricName.backgroundRefreshDuration]

    /// - Parameter registry: where the counters and gauges go; default a new, empty one.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        prometheus = PrometheusMetricsFactory(registry: registry)
    }

    /// Every metric in the text exposition format (version 0.0.4).
    public func text() -> String {
        var text = registry.emitToString()
        histograms.withLock { families in
            for family in families where !family.series.isEmpty {
                if let help = CacheMetricName.help(for: family.name) { text += "# HELP \(family.name) \(Self.escapedHelp(help))\n" }
                text += "# TYPE \(family.name) histogram\n"
                for series in family.series { series.emit(into: &text) }
            }
        }
        return text
    }

    // MARK: MetricsFactory

    /// A counter: with its help text when it is one of ``CacheMetricName``'s.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let help = CacheMetricName.help(for: label) else { return prometheus.makeCounter(label: label, dimensions: dimensions) }
        return registry.makeCounter(descriptor: Self.descriptor(label, help), labels: dimensions)
    }

    /// A floating-point counter: the same series as ``makeCounter(label:dimensions:)`` makes
    /// (with its help text, which a name must always have or never).
    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        guard let help = CacheMetricName.help(for: label) else { return prometheus.makeFloatingPointCounter(label: label, dimensions: dimensions) }
        return registry.makeCounter(descriptor: Self.descriptor(label, help), labels: dimensions)
    }

    /// A gauge (`aggregate: false`, with its help text when it is one of ``CacheMetricName``'s)
    /// or a value histogram.
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard !aggregate, let help = CacheMetricName.help(for: label) else {
            return prometheus.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
        }
        return registry.makeGauge(descriptor: Self.descriptor(label, help), labels: dimensions)
    }

    /// A gauge: the same series as a recorder that does not aggregate.
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let help = CacheMetricName.help(for: label) else { return prometheus.makeMeter(label: label, dimensions: dimensions) }
        return registry.makeGauge(descriptor: Self.descriptor(label, help), labels: dimensions)
    }

    /// One of the latency timers: its series of the ``PrometheusLatencyHistogram`` of that name, made
    /// once per set of labels. Any other timer (or one with a label name Prometheus would not
    /// take, or `le`): swift-prometheus' histogram.
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard Self.latencyTimers.contains(label), PrometheusLatencyHistogram.acceptsLabels(dimensions) else {
            return prometheus.makeTimer(label: label, dimensions: dimensions)
        }
        let renderedLabels = PrometheusLatencyHistogram.render(dimensions)
        return histograms.withLock { families in
            func made() -> PrometheusLatencyHistogram { PrometheusLatencyHistogram(name: label, labels: dimensions, buckets: CacheMetrics.latencyBuckets) }
            guard let index = families.firstIndex(where: { $0.name == label }) else {
                let histogram = made()
                families.append(HistogramFamily(name: label, series: [histogram]))
                return histogram
            }
            if let existing = families[index].series.first(where: { $0.renderedLabels == renderedLabels }) { return existing }
            let histogram = made()
            families[index].series.append(histogram)
            return histogram
        }
    }

    /// Unregisters a counter.
    public func destroyCounter(_ handler: any CounterHandler) { prometheus.destroyCounter(handler) }

    /// Unregisters a floating-point counter.
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        prometheus.destroyFloatingPointCounter(handler)
    }

    /// Unregisters a recorder.
    public func destroyRecorder(_ handler: any RecorderHandler) { prometheus.destroyRecorder(handler) }

    /// Unregisters a meter.
    public func destroyMeter(_ handler: any MeterHandler) { prometheus.destroyMeter(handler) }

    /// Unregisters a timer: a latency histogram's series leaves the page.
    public func destroyTimer(_ handler: any TimerHandler) {
        guard let histogram = handler as? PrometheusLatencyHistogram else { return prometheus.destroyTimer(handler) }
        histograms.withLock { families in
            for index in families.indices { families[index].series.removeAll { $0 === histogram } }
        }
    }

    /// A help text as the text format wants it: `\\` and line feeds escaped, and nothing else
    /// (a `\"` is an escape in a label value only).
    private static func escapedHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// `name` whole, as swift-prometheus' descriptor spells it (no unit appended).
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

/// The series of one latency histogram, each with its own labels.
private struct HistogramFamily {
    let name: String
    var series: [PrometheusLatencyHistogram]
}
