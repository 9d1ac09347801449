import Dispatch
import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors of the raw test sockets.
struct RawSocketError: Error, CustomStringConvertible {
    var description: String
}

/// A Unix socket address for `bind`/`connect`.
private func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
    let address = try SocketAddress(unixDomainSocketPath: path)
    return address.withSockAddr { pointer, length in body(pointer, socklen_t(length)) }
}

private func makeSocket() throws -> Int32 {
    #if os(Linux)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw RawSocketError(description: "socket: \(String(cString: strerror(errno)))") }
    return descriptor
}

/// Leaves a socket file at `path` that nothing listens on — what a killed process leaves behind.
func makeStaleSocket(at path: String) throws {
    let descriptor = try makeSocket()
    defer { close(descriptor) }
    let result = try withAddress(path) { bind(descriptor, $0, $1) }
    guard result == 0 else { throw RawSocketError(description: "bind: \(String(cString: strerror(errno)))") }
}

/// A dashboard written with plain blocking system calls: it can connect and then not read
/// (a stalled dashboard), send arbitrary bytes, and read lines with a timeout.
///
/// `@unchecked Sendable`: the descriptor's reads and the line buffer are only touched on
/// `queue`, a serial queue; writes are single blocking `send` calls.
final class RawLineSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "raw-line-socket")
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = try makeSocket()
        let result = try withAddress(path) { connect(descriptor, $0, $1) }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw RawSocketError(description: "connect \(path): \(message)")
        }
    }

    deinit { close(descriptor) }

    /// Sends text as is (add `\n` to end a line).
    func send(_ text: String) throws {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard sent > 0 else { throw RawSocketError(description: "write: \(String(cString: strerror(errno)))") }
            bytes.removeFirst(sent)
        }
    }

    /// How many bytes the peer has sent that wait in the socket unread (a peek: nothing is
    /// consumed). Lets a test see that the server's writer has filled the socket.
    func queuedBytes() -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let count = buffer.withUnsafeMutableBytes {
            recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        }
        return max(0, count)
    }

    /// The next line; throws on timeout or end of stream.
    func readLine(timeout: Double = 5) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.blockingReadLine(timeout: timeout) })
            }
        }
    }

    /// Lines up to and including the first for which `done` is true.
    func readLines(timeout: Double = 5, until done: @escaping @Sendable (String) -> Bool) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    let deadline = Date().addingTimeInterval(timeout)
                    var lines: [String] = []
                    while true {
                        let line = try self.blockingReadLine(timeout: max(0.01, deadline.timeIntervalSinceNow))
                        lines.append(line)
                        if done(line) { return lines }
                    }
                })
            }
        }
    }

    /// Whether the peer has closed the connection (after any unread lines), waiting up to `timeout`.
    func isClosedByPeer(timeout: Double = 5) async -> Bool {
        do {
            _ = try await readLines(timeout: timeout) { _ in false }
            return false
        } catch let error as RawSocketError {
            return error.description == "end of stream"
        } catch {
            return false
        }
    }

    private func blockingReadLine(timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw RawSocketError(description: "timed out waiting for a line") }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(remaining * 1000) + 1)
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw RawSocketError(description: "end of stream") }
            pending.append(contentsOf: chunk[..<count])
        }
    }
}

/// A listener that greets every connection with fixed text and then says nothing more — a
/// stand-in for a different program (or a future protocol version) on an attach socket —
/// or, asked to, resets each connection after its greeting (a process killed mid-reply), or
/// answers each line it reads with what `reply` makes of it (a peer's own result lines).
final class GreetingServer: @unchecked Sendable {
    // `@unchecked Sendable`: the descriptors are only used on `queue` after `init`, and
    // `stop()` closes the listener, which ends the accept loop.
    private let listener: Int32
    private let queue = DispatchQueue(label: "greeting-server")
    private let greeting: String
    private let resetAfterGreeting: Bool
    private let reply: (@Sendable (String) -> String)?

    init(path: String, greeting: String, resetAfterGreeting: Bool = false, reply: (@Sendable (String) -> String)? = nil) throws {
        listener = try makeSocket()
        self.greeting = greeting
        self.resetAfterGreeting = resetAfterGreeting
        self.reply = reply
        let bound = try withAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 8) == 0 else {
            throw RawSocketError(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        queue.async { self.acceptLoop() }
    }

    private func acceptLoop() {
        var connections: [Int32] = []
        defer { connections.forEach { close($0) } }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let bytes = Array(greeting.utf8)
            _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if resetAfterGreeting {
                usleep(100_000)  // the greeting read first
                var linger = linger(l_onoff: 1, l_linger: 0)  // close with RST
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                close(connection)
                continue
            }
            connections.append(connection)
            if let reply { answerLines(on: connection, with: reply) }
        }
    }

    /// Reads lines until the peer closes, writing `reply(line)` for each.
    private func answerLines(on connection: Int32, with reply: @Sendable (String) -> String) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                let answer = Array(reply(line).utf8)
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
