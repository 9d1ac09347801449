public import CacheStore
public import CachingClient
import HTTPCaching

extension CachingClientConfiguration {
    /// A client configuration for a ``CachingProxy``: shared-cache rules (`s-maxage`,
    /// `proxy-revalidate`, no `private` responses, §3.5's `Authorization` rule), redirects
    /// passed to the client rather than followed, and up to 256 connections to the origin
    /// (with AsyncHTTPClient's 8, a ninth slow request made every other miss wait, then fail).
    ///
    /// ```swift
    /// let client = try await CachingClient(configuration: .proxy(store: StoreConfiguration()))
    /// ```
    public static func proxy(store: StoreConfiguration) -> CachingClientConfiguration {
        var configuration = CachingClientConfiguration(store: store, mode: .shared, followRedirects: false)
        configuration.connectionsPerOrigin = 256
        return configuration
    }
}
