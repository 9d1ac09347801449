import Foundation

/// The package's top-level folder, found from this source file's path.
enum PackageFolder {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let themes = root.appendingPathComponent("themes")
}
