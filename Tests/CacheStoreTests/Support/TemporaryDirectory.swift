import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = "cachestore") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(getpid())-\(UUID().uuidString)", isDirectory: true)
    }

    var path: String { url.path }

    /// The path of a namespace's directory inside it.
    func namespace(_ name: String = "default") -> String { path + "/" + name }

    /// The entries' metadata files of a namespace (full paths): one per entry.
    func entryFiles(_ namespace: String = "default") -> [String] {
        filesInEntries(namespace).filter { !($0 as NSString).lastPathComponent.contains(".") }
    }

    /// The entries' body files of a namespace (`<storage key>.<body id>`, full paths).
    func bodyFiles(_ namespace: String = "default") -> [String] {
        filesInEntries(namespace).filter { ($0 as NSString).lastPathComponent.contains(".") }
    }

    /// Every file in a namespace's `entries/` directory (full paths, sorted).
    func filesInEntries(_ namespace: String = "default") -> [String] {
        let directory = self.namespace(namespace) + "/entries"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { directory + "/" + $0 }
    }

    /// The disk space a namespace's entry files take, as `du` counts it (allocated blocks).
    func allocatedBytesInEntries(_ namespace: String = "default") throws -> Int {
        try filesInEntries(namespace).reduce(0) { total, path in
            var info = stat()
            guard stat(path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
            return total + Int(info.st_blocks) * 512
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
