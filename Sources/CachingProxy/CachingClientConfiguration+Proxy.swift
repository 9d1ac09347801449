public import CacheStore
public import CachingClient
import HTTPCaching

extension CachingClientConfiguration {
    /// A client configuration for a ``CachingProxy``: shared-cache rules (`s-maxage`,
    /// `proxy-revalidate`, no `private` responses, §3.5's `Authorization` rule) and redirects
    /// passed to the client rather than followed.
    ///
    /// ```swift
    /// let client = try await CachingClient(configuration: .proxy(store: StoreConfiguration()))
    /// ```
    public static func proxy(store: StoreConfiguration) -> CachingClientConfiguration {
        CachingClientConfiguration(store: store, mode: .shared, followRedirects: false)
    }
}
