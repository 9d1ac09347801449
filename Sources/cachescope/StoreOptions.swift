import ArgumentParser
import CacheStore
import CachingClient
import Foundation

/// Options shared by the commands that open a store.
struct StoreOptions: ParsableArguments {
    @Option(help: "The disk cache directory (default: $XDG_CACHE_HOME/cachescope or ~/.cache/cachescope).")
    var cacheDir: String?

    /// The directory to use: the option, or the user's cache directory.
    var directory: URL {
        if let cacheDir { return URL(fileURLWithPath: cacheDir) }
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("cachescope")
    }

    func clientConfiguration() -> CachingClientConfiguration {
        var configuration = CachingClientConfiguration()
        configuration.store = StoreConfiguration(directory: directory)
        return configuration
    }
}
