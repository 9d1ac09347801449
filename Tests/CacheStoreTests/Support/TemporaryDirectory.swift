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

    /// The entry files of a namespace (full paths).
    func entryFiles(_ namespace: String = "default") -> [String] {
        let directory = self.namespace(namespace) + "/entries"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { directory + "/" + $0 }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
