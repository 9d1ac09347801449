// MARK: - Invalid workload settings

/// Why a workload cannot be built from its configuration; each message names the setting and
/// the values it accepts.
public enum WorkloadError: Error, Equatable, CustomStringConvertible {
    /// The base URL is not `http://…` or `https://…`.
    case invalidBaseURL(String)
    /// The rate is not a finite number above 0.
    case invalidRate(Double)
    /// The concurrency limit is below 1.
    case invalidConcurrency(Int)
    /// The number of distinct URLs per kind is outside `1...ZipfDistribution.maximumCount`.
    case invalidUniverseSize(Int)
    /// The Zipf exponent is not a finite number in `0...10`.
    case invalidZipfExponent(Double)
    /// The share of writes to `/items` is outside `0...1`.
    case invalidWriteShare(Double)
    /// A mix weight is negative or not finite.
    case invalidWeight(EndpointKind, Double)
    /// Every mix weight is zero, so no endpoint would ever be requested.
    case emptyMix
    /// `/vary/lang` is in the mix but there are no Accept-Language values to send.
    case emptyAcceptLanguages
    /// The duration is zero or negative.
    case invalidDuration(Duration)

    /// A sentence naming the setting and what it accepts.
    public var description: String {
        switch self {
        case .invalidBaseURL(let url):
            "base URL '\(url)' must start with http:// or https://, e.g. http://127.0.0.1:8080"
        case .invalidRate(let rate):
            "requests per second must be a number above 0, got \(rate)"
        case .invalidConcurrency(let limit):
            "concurrency must be at least 1, got \(limit)"
        case .invalidUniverseSize(let size):
            "distinct URLs per endpoint kind must be from 1 to \(ZipfDistribution.maximumCount), got \(size)"
        case .invalidZipfExponent(let exponent):
            "Zipf exponent must be from 0 to 10 (about 1.1 is typical), got \(exponent)"
        case .invalidWriteShare(let share):
            "share of POSTs to /items must be from 0 to 1, got \(share)"
        case .invalidWeight(let kind, let weight):
            "mix weight for \(kind.pattern) must be 0 or more, got \(weight)"
        case .emptyMix:
            "the endpoint mix has no positive weight: give at least one endpoint kind a weight above 0"
        case .emptyAcceptLanguages:
            "/vary/lang is in the mix but no Accept-Language values are set: add some, e.g. [\"en\", \"fr\"]"
        case .invalidDuration(let duration):
            "duration must be above zero (or nil to run until cancelled), got \(duration)"
        }
    }
}
