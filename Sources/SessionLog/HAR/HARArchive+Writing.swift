import CacheEvents
import Foundation

extension HARArchive {
    /// The archive as pretty-printed JSON with sorted keys and unescaped slashes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the archive to `path` atomically (a temporary file renamed into place).
    /// - Throws: ``HARError/writeFailed(file:reason:)``.
    public func write(to path: String) throws(HARError) {
        do {
            try encoded().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
            throw .writeFailed(file: path, reason: reason)
        }
    }
}
