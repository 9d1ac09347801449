import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary stores (`$TMPDIR/cachescope-demo-…`, `cachescope-proxy-…`) that runs killed
/// with SIGKILL left behind — up to a disk tier's capacity each — removed by the next `demo`
/// or `proxy` that makes one. A store is abandoned when it is older than ``minimumAge`` and no
/// process holds the lock of any of its namespaces: a running process holds its locks for as
/// long as it runs, and one just starting has made its directory within the last minute.
enum AbandonedStores {
    /// The name prefixes of the temporary stores.
    static let prefixes = ["cachescope-demo-", "cachescope-proxy-"]
    /// How old a directory must be before it is looked at.
    static let minimumAge: TimeInterval = 60

    /// Removes the abandoned stores in `directory` (the temporary directory); returns how many.
    @discardableResult
    static func sweep(in directory: URL = FileManager.default.temporaryDirectory, now: Date = Date()) -> Int {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where isTemporaryStoreName(name) {
            let store = directory.appendingPathComponent(name)
            guard let attributes = try? manager.attributesOfItem(atPath: store.path),
                attributes[.type] as? FileAttributeType == .typeDirectory,
                let modified = attributes[.modificationDate] as? Date, now.timeIntervalSince(modified) >= minimumAge,
                let locks = freeLocks(in: store)
            else { continue }
            if (try? manager.removeItem(at: store)) != nil { removed += 1 }
            for descriptor in locks { close(descriptor) }
        }
        return removed
    }

    /// Whether `name` is one the commands give their temporary stores: a prefix and a UUID,
    /// exactly (a `--cache-dir $TMPDIR/cachescope-demo-keep` is a user's, and stays).
    static func isTemporaryStoreName(_ name: String) -> Bool {
        guard let prefix = prefixes.first(where: name.hasPrefix) else { return false }
        return UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
    }

    /// The lock files of `store`'s namespaces, each locked here (so no process starts on it
    /// while it is removed); `nil` when a process holds one.
    private static func freeLocks(in store: URL) -> [Int32]? {
        let namespaces = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
        var held: [Int32] = []
        for namespace in namespaces {
            let path = store.appendingPathComponent(namespace).appendingPathComponent("lock").path
            let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else {
                if errno == ENOENT || errno == ENOTDIR { continue }  // no lock file: not a namespace
                for other in held { close(other) }
                return nil  // cannot tell (no permission, out of descriptors): left alone
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                for other in held { close(other) }
                return nil
            }
            held.append(descriptor)
        }
        return held
    }
}
