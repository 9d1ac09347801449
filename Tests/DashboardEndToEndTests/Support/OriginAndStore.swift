import DemoOrigin
import Foundation

/// A demo origin and an empty cache directory, for running `cachescope get` against the origin
/// as a user does: every run a new process, the store on disk shared between them.
struct OriginAndStore {
    let origin: DemoOrigin
    let store: TemporaryDirectory

    /// The `--cache-dir` every run uses.
    var cache: String { store.path("cache") }

    /// Runs `cachescope get ORIGIN<path> --cache-dir CACHE` followed by `options`.
    func get(_ path: String, _ options: String...) async throws -> Binary.Output {
        try await Binary.run(["get", origin.baseURL + path, "--cache-dir", cache] + options)
    }
}

/// Starts a demo origin, runs `body` with it and a new store, and stops the origin afterwards,
/// also when `body` throws.
func withOriginAndStore(_ body: (OriginAndStore) async throws -> Void) async throws {
    let origin = try await DemoOrigin.start()
    let setup = OriginAndStore(origin: origin, store: try TemporaryDirectory())
    do {
        try await body(setup)
    } catch {
        try? await origin.stop()
        throw error
    }
    try await origin.stop()
}

extension Binary.Output {
    /// Standard output decoded as JSON, for the commands' `--json` outputs.
    func json<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: Data(stdout.utf8))
    }
}
