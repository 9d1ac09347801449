import CacheAttach
import CacheEvents
import Testing

/// The set-up most attach tests share: a fresh ``MiniStore`` published on `shop.sock` in a new
/// temporary directory. `prepare` runs on the store before it is published; `body` gets the
/// store, its server and the directory. The server is stopped and the directory removed
/// afterwards, also when `body` throws (stopping twice is harmless).
func withPublishedStore(
    prepare: (MiniStore) async -> Void = { _ in },
    _ body: (MiniStore, AttachServer, TemporaryDirectory) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = MiniStore()
    await prepare(store)
    let server = try await store.publish(at: directory.file("shop.sock"))
    do {
        try await body(store, server, directory)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// A raw connection to `server` that has already read the snapshot, up to its `storeStats` line.
func rawPeerPastSnapshot(_ server: AttachServer) async throws -> RawLineSocket {
    let peer = try RawLineSocket(path: server.path)
    _ = try await peer.readLines { $0.contains("\"storeStats\"") }
    return peer
}

/// Attaches a new client to `server`, sends `command` and returns the result: a check that the
/// server still serves new connections.
func sendFromNewClient(_ command: ClientCommand, to server: AttachServer) async throws -> CommandResult {
    let client = try await AttachClient.connect(path: server.path)
    defer { client.close() }
    return try await client.send(command)
}

/// Checks that neither a server publishing at `path` nor a client connecting to it may use it:
/// both are refused with `error`.
func expectPublishAndConnectRefused(
    at path: String, with error: AttachError, sourceLocation: SourceLocation = #_sourceLocation
) async {
    await #expect(throws: error, "publishing", sourceLocation: sourceLocation) {
        _ = try await MiniStore().publish(at: path)
    }
    await #expect(throws: error, "connecting", sourceLocation: sourceLocation) {
        _ = try await AttachClient.connect(path: path)
    }
}
