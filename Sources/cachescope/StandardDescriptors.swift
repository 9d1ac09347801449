#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error, made sure to exist before anything else is opened.
///
/// A process started with one of them closed (`cachescope get URL >&-`) would give that number
/// to the next file it opens — a log, the store's index, a socket — and what it then writes "to
/// standard output" would land in that file. Each closed one is opened on `/dev/null` instead,
/// as daemons do, so such writes are discarded.
enum StandardDescriptors {
    static func ensureOpen() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open() returns the lowest free number: this one, as the lower ones are open.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened != descriptor, opened >= 0 { close(opened) }
        }
    }
}
