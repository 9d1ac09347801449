import HTTPCaching

/// Reads entry files on the caller's thread, beside the disk actor.
///
/// A disk hit through the actor costs two thread hand-offs (to its queue and back), several
/// times the read itself; files are immutable once renamed into place, so reading them
/// concurrently is safe. Races with the actor are settled by the index: a file that
/// vanished or changed under a record that was removed or stored again is stale, not
/// corrupt (``StoreIndex/applyReads(_:key:namespace:now:)`` compares generations).
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
            let bytes: [UInt8]
            do throws(FileSystemError) {
                bytes = try fileSystem.readFile(entriesDirectory + "/" + read.storageKey.hex)
            } catch {
                if error.isNotFound {
                    results.append(.outcome(.corrupt(read.storageKey, generation: read.generation, reason: "file missing")))
                } else {
                    results.append(.retryOnActor(read))
                }
                continue
            }
            do throws(EntryFileError) {
                let decoded = try codec.decode(bytes, storageKey: read.storageKey, expectedKey: key)
                results.append(.outcome(.entry(read.storageKey, generation: read.generation, decoded)))
            } catch {
                results.append(.outcome(.corrupt(read.storageKey, generation: read.generation, reason: error.description)))
            }
        }
        return results
    }
}
