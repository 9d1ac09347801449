import HTTPCaching

/// Reads entry files on the caller's thread, beside the disk actor.
///
/// A disk hit through the actor costs two thread hand-offs (to its queue and back), several
/// times the read itself. No file is changed in place — a freshen renames a new metadata
/// file over the old one, and body files are never replaced — so reading them concurrently
/// is safe: a reader gets the old or the new metadata, and the body file either names.
/// Races with the actor are settled by the index: a file that vanished or changed under a
/// record that was removed or stored again is stale, not corrupt
/// (``StoreIndex/applyReads(_:key:namespace:now:)`` compares generations).
///
/// Records whose write is still queued, and I/O errors (which must degrade the namespace),
/// go through ``DiskStore/read(namespace:reads:)`` instead.
struct DiskReader: Sendable {
    let entriesDirectory: String
    let codec: EntryFileCodec
    let fileSystem: any StoreFileSystem

    /// What reading one record gave.
    enum Result: Sendable {
        case outcome(ReadOutcome)
        /// An I/O error: ask the disk actor, which degrades the namespace if it persists.
        case retryOnActor(DiskRead)
    }

    func read(_ reads: [DiskRead], key: CacheKey) -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(reads.count)
        for read in reads {
            switch Self.readEntry(read.storageKey, key: key, in: entriesDirectory, codec: codec, fileSystem: fileSystem) {
            case .decoded(let decoded):
                results.append(.outcome(.entry(read.storageKey, generation: read.generation, decoded)))
            case .corrupt(let reason):
                results.append(.outcome(.corrupt(read.storageKey, generation: read.generation, reason: reason)))
            case .failed:
                results.append(.retryOnActor(read))
            }
        }
        return results
    }

    /// What reading one entry's files gave.
    enum FileRead {
        case decoded(EntryFileCodec.Decoded)
        /// Damaged or missing: the entry is corrupt (unless its record changed meanwhile).
        case corrupt(String)
        /// An I/O error other than a missing file.
        case failed(FileSystemError)
    }

    /// Reads an entry's metadata file, then the body file it names, and verifies both.
    static func readEntry(
        _ storageKey: StorageKey, key: CacheKey, in entriesDirectory: String, codec: EntryFileCodec,
        fileSystem: any StoreFileSystem
    ) -> FileRead {
        let path = entriesDirectory + "/" + storageKey.hex
        let metadata: [UInt8]
        do throws(FileSystemError) {
            metadata = try fileSystem.readFile(path)
        } catch {
            if error.isNotFound { return .corrupt("file missing") }
            return error.isDirectoryInstead ? .corrupt("a directory where its file should be") : .failed(error)
        }
        do throws(EntryReadFailure<FileSystemError>) {
            let decoded = try codec.decode(metadata: metadata, storageKey: storageKey, expectedKey: key) {
                (id: BodyID) throws(FileSystemError) -> [UInt8] in
                try fileSystem.readFile(path + "." + id.hex)
            }
            return .decoded(decoded)
        } catch {
            switch error {
            case .corrupt(let damage): return .corrupt(damage.description)
            case .body(let failure):
                if failure.isNotFound { return .corrupt("body file missing") }
                return failure.isDirectoryInstead ? .corrupt("a directory where its body file should be") : .failed(failure)
            }
        }
    }
}
