import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a live socket from a stale one by trying to connect, synchronously and without
/// blocking: discovery lists sockets from a plain function, and a server must know whether a
/// socket file at its path still has a listener before it may remove it.
enum SocketProbe {
    /// What a connection attempt found.
    enum Outcome: Sendable, Hashable {
        /// A process accepts connections (or its backlog is full, which also means it is alive).
        case accepting
        /// Nothing listens: the socket file was left behind by a process that exited.
        case refused
        /// The operating system refused access.
        case denied
        /// Nothing is at the path.
        case missing
        /// Some other failure, in words.
        case failed(String)
    }

    /// Connects to the Unix socket at `path` and closes the connection at once.
    ///
    /// A live server sees a dashboard that leaves immediately; that is cheap and harmless.
    static func probe(_ path: String) -> Outcome {
        let address: SocketAddress
        do {
            address = try SocketAddress(unixDomainSocketPath: path)
        } catch {
            return .failed("\(error)")
        }
        #if os(Linux)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return .failed(FileSystem.message(for: errno)) }
        defer { close(descriptor) }
        // Non-blocking, so a server whose accept backlog is full cannot hang discovery.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let code: Int32 = address.withSockAddr { pointer, length in
            connect(descriptor, pointer, socklen_t(length)) == 0 ? 0 : errno
        }
        switch code {
        case 0: return .accepting
        case EAGAIN, EINPROGRESS: return .accepting
        case ECONNREFUSED: return .refused
        case EACCES, EPERM: return .denied
        case ENOENT: return .missing
        default: return .failed(FileSystem.message(for: code))
        }
    }
}
