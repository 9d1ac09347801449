@testable import CacheAttach
import CacheEvents
import SessionLog
import Foundation
import Testing

/// Where sockets live, who may use them, and what happens to sockets left behind.
@Suite("Socket location, permissions and stale sockets", .timeLimit(.minutes(2)))
struct SocketLocationTests {
    @Test("the socket is 0600 and the server refuses a directory others can enter")
    func permissions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await MiniStore().publish(at: directory.file("shop.sock"))
        #expect(CacheAttachTests.permissions(of: server.path) == 0o600)
        await server.stop()

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let error = await #expect(throws: AttachError.self) {
            _ = try await MiniStore().publish(at: directory.file("shop.sock"))
        }
        #expect(error?.description == "refusing to use \(directory.path): its permissions are 0755 but must give group "
            + "and others no access (0700); run `chmod 700 \(directory.path)`")
        #expect(!exists(directory.file("shop.sock")))
    }

    @Test("the default location is created 0700, named after the process, and found by discovery")
    func defaultLocation() async throws {
        let name = "attach-test-\(UInt32.random(in: 0...UInt32.max))"
        let server = try await MiniStore().publish(at: nil, processName: name)
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(server.path == AttachPaths.defaultDirectory + "/\(name)-\(pid).sock")
        #expect(CacheAttachTests.permissions(of: AttachPaths.defaultDirectory) == 0o700)
        #expect(CacheAttachTests.permissions(of: server.path) == 0o600)
        let found = AttachClient.discover().first { $0.path == server.path }
        #expect(found == AttachTarget(path: server.path, processName: name, pid: pid, state: .live))
        await server.stop()
        #expect(!exists(server.path))
    }

    @Test("the default directory follows XDG_RUNTIME_DIR, else /tmp/cachescope-UID")
    func defaultDirectoryRule() {
        #expect(AttachPaths.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], userID: 1000)
            == "/run/user/1000/cachescope")
        #expect(AttachPaths.defaultDirectory(environment: [:], userID: 1000) == "/tmp/cachescope-1000")
        #expect(AttachPaths.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 7) == "/tmp/cachescope-7")
        #expect(AttachPaths.searchedDirectories(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
            == ["/run/user/1000/cachescope", "/tmp/cachescope-1000"])
        #expect(AttachPaths.socketName(processName: "my app/v2", pid: 42) == "my_app_v2-42.sock")
        #expect(AttachPaths.parseSocketName("cachescope-demo-42.sock").map { "\($0.processName) \($0.pid)" } == "cachescope-demo 42")
        #expect(AttachPaths.parseSocketName("notes.txt") == nil)
    }

    @Test("a directory owned by someone else is refused with a message naming it")
    func foreignOwner() throws {
        let status = FileStatus(kind: .directory, owner: 4242, permissions: 0o700, identity: FileIdentity(device: 1, inode: 1))
        let error = #expect(throws: AttachError.self) {
            try DirectoryCheck.check(status, path: "/tmp/cachescope-1000", userID: 1000)
        }
        #expect(error?.description == "refusing to use /tmp/cachescope-1000: it is owned by user ID 4242, "
            + "not by you (user ID 1000); remove it or choose another path")
    }

    @Test("symbolic links are never followed: not for the directory, not for the socket")
    func symbolicLinks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = directory.file("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let linkedDirectory = directory.file("linked")
        try FileManager.default.createSymbolicLink(atPath: linkedDirectory, withDestinationPath: real)
        await #expect(throws: AttachError.symbolicLink(path: linkedDirectory)) {
            _ = try await MiniStore().publish(at: linkedDirectory + "/shop.sock")
        }

        let target = directory.file("target.txt")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let linkedSocket = directory.file("shop.sock")
        try FileManager.default.createSymbolicLink(atPath: linkedSocket, withDestinationPath: target)
        await expectPublishAndConnectRefused(at: linkedSocket, with: .symbolicLink(path: linkedSocket))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }

    @Test("a stale socket is listed as stale, refuses clients, and is replaced by a new server")
    func staleSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shop-999999.sock")
        try makeStaleSocket(at: path)

        #expect(AttachClient.discover(in: [directory.path]) == [
            AttachTarget(path: path, processName: "shop", pid: 999_999, state: .stale),
        ])
        await #expect(throws: AttachError.connectionRefused(path: path)) {
            _ = try await AttachClient.connect(path: path)
        }

        let server = try await MiniStore().publish(at: path)
        let client = try await AttachClient.connect(path: path)
        #expect(client.server.process == "ministore")
        #expect(AttachClient.discover(in: [directory.path]).map(\.state) == [.live])
        client.close()
        await server.stop()
    }

    @Test("a socket that accepts connections is never replaced")
    func liveSocketKept() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shop.sock")
        let first = try await MiniStore().publish(at: path)
        await #expect(throws: AttachError.alreadyInUse(path: path)) {
            _ = try await MiniStore().publish(at: path)
        }
        let client = try await AttachClient.connect(path: path)
        #expect(try await client.send(.purgeAll).succeeded)
        client.close()
        await first.stop()
    }

    @Test("a file that is not a socket is left alone")
    func notASocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shop.sock")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path))
        await expectPublishAndConnectRefused(at: path, with: .notASocket(path: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "notes")
    }

    @Test("an explicit path needs an existing directory and must fit in a socket address")
    func explicitPathRules() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("nope")
        await #expect(throws: AttachError.missingDirectory(path: missing)) {
            _ = try await MiniStore().publish(at: missing + "/shop.sock")
        }
        let long = directory.file(String(repeating: "s", count: 120) + ".sock")
        await #expect(throws: AttachError.pathTooLong(path: long, limit: AttachPaths.maximumPathLength)) {
            _ = try await MiniStore().publish(at: long)
        }
    }

    @Test("discovery lists live and stale sockets and skips everything else")
    func discovery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let live = try await MiniStore().publish(at: directory.file("alpha-100.sock"))
        try makeStaleSocket(at: directory.file("beta-200.sock"))
        try makeStaleSocket(at: directory.file("custom.sock"))
        try Data().write(to: URL(fileURLWithPath: directory.file("gamma-300.sock")))
        try makeStaleSocket(at: directory.file("delta-400.socket"))

        let unsafe = try TemporaryDirectory()
        defer { unsafe.remove() }
        try makeStaleSocket(at: unsafe.file("omega-1.sock"))
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: unsafe.path)

        let targets = AttachClient.discover(in: [directory.path, unsafe.path, directory.file("missing")])
        #expect(targets == [
            AttachTarget(path: live.path, processName: "alpha", pid: 100, state: .live),
            AttachTarget(path: directory.file("beta-200.sock"), processName: "beta", pid: 200, state: .stale),
            AttachTarget(path: directory.file("custom.sock"), processName: "custom", pid: nil, state: .stale),
        ])
        #expect(try AttachClient.chooseTarget(among: targets, searched: [directory.path]).path == live.path)
        #expect(targets[0].description == "alpha (pid 100)  live  \(live.path)")
        await live.stop()
    }

    @Test("server stop removes the socket file, but not a socket that replaced it")
    func stopRemovesSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shop.sock")
        let server = try await MiniStore().publish(at: path)
        #expect(exists(path))
        await server.stop()
        #expect(!exists(path))
        await server.stop()

        let second = try await MiniStore().publish(at: path)
        try FileManager.default.removeItem(atPath: path)
        // A file system may reuse the freed inode number; the change time still tells them
        // apart, once the (coarse) file system clock has moved on: a wait for that clock, not ordering.
        try await Task.sleep(for: .milliseconds(20))
        try makeStaleSocket(at: path)
        await second.stop()
        #expect(exists(path), "a socket that is not the server's own stays")
    }
}
