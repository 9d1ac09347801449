import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates and binds the server's Unix socket itself, then hands the descriptor to NIO.
///
/// Why not let NIO bind: a NIO server channel that bound a Unix socket unlinks whatever socket
/// is at that path when it closes — even one another server put there after ours was removed.
/// A socket NIO did not bind is left alone, so the server decides what to remove.
enum ListeningSocket {
    /// A socket bound to `path` (not yet listening; NIO calls `listen`).
    static func make(boundTo path: String) throws(AttachError) -> NIOBSDSocket.Handle {
        let address: SocketAddress
        do {
            address = try SocketAddress(unixDomainSocketPath: path)
        } catch {
            throw .pathTooLong(path: path, limit: AttachPaths.maximumPathLength)
        }
        #if os(Linux)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else {
            throw .system(call: "socket", path: path, message: FileSystem.message(for: errno))
        }
        let code: Int32 = address.withSockAddr { pointer, length in
            systemBind(descriptor, pointer, socklen_t(length)) == 0 ? 0 : errno
        }
        guard code == 0 else {
            _ = systemClose(descriptor)
            switch code {
            case EADDRINUSE: throw .alreadyInUse(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .system(call: "bind", path: path, message: FileSystem.message(for: code))
            }
        }
        return descriptor
    }
}

// The C functions under names that the enum's own members do not shadow.
private let systemBind = bind
private let systemClose = close
