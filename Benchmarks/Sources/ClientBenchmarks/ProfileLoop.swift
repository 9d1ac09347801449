import CachingClient
import HTTPTypes

/// `--profile hit|revalidate COUNT`: sends COUNT requests of one kind, one after another, for a
/// profiler (`perf record`) instead of measuring; returns how long they took.
func runProfileLoop(client: CachingClient, request: HTTPRequest, count: Int) async throws -> Duration {
    try await Task.detached {
        let start = ContinuousClock.now
        for _ in 0..<count { _ = try await client.data(for: request) }
        return ContinuousClock.now - start
    }.value
}
