import Foundation

/// A real directory under the system's temporary directory for one test, removed when the
/// test lets go of it (keep the value alive while a process may still use the folder).
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Creates the directory, named `PREFIX-UUID`.
    public init(prefix: String = "cachescope-tests") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` (as UTF-8) to a file and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes raw bytes to a file and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The file's contents as UTF-8 text.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }
}
