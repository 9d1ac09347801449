import ArgumentParser
import CacheScopeApp

/// `--cache-dir DIR`, shared by the commands that open a disk store.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The disk store's directory, created (mode 0700) if missing. Default: for get $XDG_CACHE_HOME/cachescope or ~/.cache/cachescope; for demo and proxy a temporary directory removed at the end.",
        valueName: "DIR"))
    var cacheDir: String?

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
