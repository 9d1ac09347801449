import CacheEvents
/// Events collected in fixed-size chunks of raw memory, then moved — not copied, no
/// reference counting — into one exactly sized array. A million events never exist twice,
/// and no array ever doubles its capacity mid-load.
final class EventChunks {
    /// Events per chunk (65,536: about 9 MB).
    static let chunkCapacity = 1 << 16

    private var chunks: [UnsafeMutablePointer<CacheEvent>] = []
    /// Events held.
    private(set) var count = 0

    init() {}

    deinit {
        for (index, chunk) in chunks.enumerated() {
            chunk.deinitialize(count: countInChunk(index))
            chunk.deallocate()
        }
    }

    /// Appends one event.
    func append(_ event: CacheEvent) {
        let slot = count % Self.chunkCapacity
        if slot == 0 { chunks.append(.allocate(capacity: Self.chunkCapacity)) }
        (chunks[chunks.count - 1] + slot).initialize(to: event)
        count += 1
    }

    /// The event at `index` (read or modify in place).
    subscript(index: Int) -> CacheEvent {
        get { chunks[index / Self.chunkCapacity][index % Self.chunkCapacity] }
        set { chunks[index / Self.chunkCapacity][index % Self.chunkCapacity] = newValue }
    }

    /// Moves every event to `destination` (room for ``count`` uninitialized events), freeing
    /// each chunk as it goes; afterwards this holds nothing.
    func moveAll(to destination: UnsafeMutablePointer<CacheEvent>) {
        for (index, chunk) in chunks.enumerated() {
            let moved = countInChunk(index)
            (destination + index * Self.chunkCapacity).moveInitialize(from: chunk, count: moved)
            chunk.deallocate()
        }
        chunks.removeAll()
        count = 0
    }

    private func countInChunk(_ index: Int) -> Int {
        index < chunks.count - 1 ? Self.chunkCapacity : count - index * Self.chunkCapacity
    }
}

extension Array where Element == CacheEvent {
    /// One array holding the events of every part, in order, moved out of their chunks.
    init(movingFrom parts: [EventChunks]) {
        let total = parts.reduce(0) { $0 + $1.count }
        self.init(unsafeUninitializedCapacity: total) { buffer, initialized in
            var offset = 0
            for part in parts {
                let count = part.count
                if count > 0 { part.moveAll(to: buffer.baseAddress! + offset) }
                offset += count
            }
            initialized = total
        }
    }
}
