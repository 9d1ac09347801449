import Foundation

/// A real directory under the system temporary folder, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("TerminalUITests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` to `name` inside the directory and returns the file's path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// The package's top-level folder, found from this source file's path.
enum PackageFolder {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let themes = root.appendingPathComponent("themes")
}
