import CacheEvents
public import Foundation

extension HARArchive {
    /// The archive as pretty-printed JSON with sorted keys and unescaped slashes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the archive to `path` atomically, readable by its owner only (mode 0600: a HAR
    /// holds URLs and headers).
    ///
    /// The bytes go through a ``StagedFile`` beside `path`, synced and renamed over it; on any
    /// failure it is removed, so `path` is either left as it was or holds the whole archive.
    /// - Throws: ``HARError/writeFailed(file:reason:)``.
    public func write(to path: String) throws(HARError) {
        let bytes: Data
        do {
            bytes = try encoded()
        } catch {
            throw .writeFailed(file: path, reason: String(describing: error))
        }
        do {
            let staged = try StagedFile(finalPath: path)
            try staged.write(bytes)
            try staged.commit()
        } catch {
            throw .writeFailed(file: path, reason: error.reason ?? error.description)
        }
    }
}
