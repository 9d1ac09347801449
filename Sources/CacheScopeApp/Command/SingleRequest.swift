public import CachingClient
import CacheStore
public import Foundation
public import HTTPCaching
public import HTTPTypes
public import SharedTier

/// What `cachescope get URL` does: one request through a caching client with a disk store,
/// then a clean exit that first lets a stale-while-revalidate refresh it started finish.
///
/// ```swift
/// let store = try DirectoryPath(SingleRequest.defaultStoreDirectory(), option: "--cache-dir")
/// let result = try await SingleRequest.perform(request, policy: .useProtocolCachePolicy, store: store)
/// print(GetReport(result).text)
/// ```
public enum SingleRequest {
    /// How long the process waits, after answering, for the background refresh a stale
    /// response started (`stale-while-revalidate`) before it exits anyway.
    public static let refreshDrainLimit: Duration = .seconds(5)

    /// Sends `request` through a client whose disk store lives in `store`; waits for its
    /// background refreshes (at most ``refreshDrainLimit``) and shuts it down. `tagField` is
    /// the response field whose tags are indexed (`--tag-header`, default `Surrogate-Key`).
    /// - Throws: ``PathError`` when the store's directory cannot be made; the store's error
    ///   when it cannot be opened, the client's when the request fails.
    public static func perform(
        _ request: HTTPRequest, policy: CachePolicy?, store: DirectoryPath, sharedTier: SharedTierConfiguration? = nil,
        tagField: String = SurrogateKeys.defaultFieldName
    ) async throws -> ClientResponse {
        try await perform(request, policy: policy, store: store, sharedTier: sharedTier, tagField: tagField, transport: nil)
    }

    /// ``perform(_:policy:store:sharedTier:tagField:)`` with the transport a test wants (`nil`: the default one).
    static func perform(
        _ request: HTTPRequest, policy: CachePolicy?, store: DirectoryPath, sharedTier: SharedTierConfiguration? = nil,
        tagField: String = SurrogateKeys.defaultFieldName, transport: (any Transport)?
    ) async throws -> ClientResponse {
        // Made here, so that a directory that cannot be is an error naming it: the store
        // would carry on in memory, and `get` exists to keep what it fetched.
        try store.create()
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(directory: store.url)
        configuration.store.tagField = tagField
        configuration.sharedTier = sharedTier
        configuration.transport = transport
        let client = try await CachingClient(configuration: configuration)
        let result: ClientResponse
        do {
            result = try await client.data(for: request, policy: policy)
        } catch {
            try? await client.shutdown()
            throw error
        }
        await client.finishBackgroundRefreshes(within: refreshDrainLimit)
        try await client.shutdown()
        return result
    }

    /// The store's directory when `--cache-dir` is not given: `$XDG_CACHE_HOME/cachescope` when
    /// that names an absolute path, else `~/.cache/cachescope` — `~` being `$HOME` when that is
    /// absolute (as the shell and the XDG specification take it: `sudo -H`, containers, test
    /// harnesses set it), else the user's home directory in the password database.
    public static func defaultStoreDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("cachescope").path
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/cachescope").path
    }
}
