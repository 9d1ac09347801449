import ArgumentParser
import CacheScopeApp
import DemoOrigin

/// `--metrics HOST:PORT`, shared by the commands that run a live client (`demo`, `proxy`).
struct MetricsOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve the cache's metrics for Prometheus at http://HOST:PORT/metrics; port 0 picks a free port. Only loopback unless --allow-remote.",
        valueName: "HOST:PORT"))
    var metrics: String?

    /// The checked `--metrics`, or `nil` when not given.
    /// - Throws: `ValidationError` naming the option: an address that does not parse, or one
    ///   that is not loopback without `allowRemote`.
    func address(allowRemote: Bool) throws -> MetricsEndpoint.Address? {
        guard let metrics else { return nil }
        do {
            return try MetricsEndpoint.Address(try ListenAddress(parsing: metrics), allowRemote: allowRemote)
        } catch {
            throw ValidationError("--metrics \(error)")
        }
    }
}
