import ArgumentParser
import CacheScopeApp
import HTTPTypes
import SharedTier

/// `--cache-dir DIR`, `--shared-tier URL` and `--tag-header NAME`, shared by the commands that
/// open a store.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The disk store's directory, created (mode 0700) if missing. Default: for get $XDG_CACHE_HOME/cachescope or ~/.cache/cachescope; for demo and proxy a temporary directory removed at the end.",
        valueName: "DIR"))
    var cacheDir: String?

    @Option(help: ArgumentHelp(
        "A shared cache tier on PostgreSQL behind memory and disk, shared with every instance given the same database; its tables are created at start. Parameters: sslmode=disable|prefer|require, connect_timeout=SECONDS (default 5). Example: postgres://cache@127.0.0.1:5432/cache?sslmode=disable",
        valueName: "URL"))
    var sharedTier: String?

    @Option(help: ArgumentHelp(
        "The response header whose space-separated tags are indexed with each entry, for purges by tag (cachescope purge --tag). Default: Surrogate-Key.",
        valueName: "NAME"))
    var tagHeader: String = "Surrogate-Key"

    /// The checked `--tag-header`.
    /// - Throws: `ValidationError` when it is not a header field name.
    func tagField() throws -> String {
        guard HTTPField.Name(tagHeader) != nil else {
            throw ValidationError("--tag-header \"\(tagHeader)\" is not a header field name (letters, digits and !#$%&'*+-.^_`|~)")
        }
        return tagHeader
    }

    /// The checked `--shared-tier`, or `nil` when not given.
    /// - Throws: `ValidationError` naming what is wrong with the URL (a usage error).
    func sharedTierConfiguration() throws -> SharedTierConfiguration? {
        do {
            return try sharedTier.map { try SharedTierConfiguration(url: $0) }
        } catch {
            throw ValidationError("--shared-tier: \(error)")
        }
    }

    /// The checked `--cache-dir`, or `nil` when not given.
    /// - Throws: `PathError` (a usage error).
    func directory() throws -> DirectoryPath? {
        try cacheDir.map { try DirectoryPath($0, option: "--cache-dir") }
    }

    /// The checked `--cache-dir`, or the user's cache directory.
    func directoryOrUserCache() throws -> DirectoryPath {
        try directory() ?? DirectoryPath(SingleRequest.defaultStoreDirectory(), option: "--cache-dir")
    }
}
