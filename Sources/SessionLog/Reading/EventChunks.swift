import CacheEvents
/// Events collected in fixed-size chunks of raw memory, then moved — not copied, no
/// reference counting — into one exactly sized array. A million events never exist twice,
/// and no array ever doubles its capacity mid-load.
final class EventChunks {
    /// Events per chunk (65,536: about 9 MB).
    static let chunkCapacity = 1 << 16

    private var chunks: [UnsafeMutablePointer<CacheEvent>] = []
    /// Events ever appended, the dropped first one included.
    private var stored = 0
    /// 1 after ``dropFirst()``: the first slot's event is gone (deinitialized).
    private var dropped = 0

    /// Events held.
    var count: Int { stored - dropped }

    init() {}

    deinit {
        for (index, chunk) in chunks.enumerated() {
            let skip = index == 0 ? dropped : 0
            (chunk + skip).deinitialize(count: countInChunk(index) - skip)
            chunk.deallocate()
        }
    }

    /// Appends one event.
    func append(_ event: CacheEvent) {
        let slot = stored % Self.chunkCapacity
        if slot == 0 { chunks.append(.allocate(capacity: Self.chunkCapacity)) }
        (chunks[chunks.count - 1] + slot).initialize(to: event)
        stored += 1
    }

    /// The event at `index` (read or modify in place).
    subscript(index: Int) -> CacheEvent {
        get { chunks[(index + dropped) / Self.chunkCapacity][(index + dropped) % Self.chunkCapacity] }
        set { chunks[(index + dropped) / Self.chunkCapacity][(index + dropped) % Self.chunkCapacity] = newValue }
    }

    /// Removes the first event (once; a part whose first line repeats the previous part's last).
    func dropFirst() {
        guard dropped == 0, count > 0 else { return }
        chunks[0].deinitialize(count: 1)
        dropped = 1
    }

    /// Moves every event to `destination` (room for ``count`` uninitialized events), freeing
    /// each chunk as it goes; afterwards this holds nothing.
    func moveAll(to destination: UnsafeMutablePointer<CacheEvent>) {
        for (index, chunk) in chunks.enumerated() {
            let skip = index == 0 ? dropped : 0
            let moved = countInChunk(index) - skip
            (destination + index * Self.chunkCapacity - dropped + skip).moveInitialize(from: chunk + skip, count: moved)
            chunk.deallocate()
        }
        chunks.removeAll()
        stored = 0
        dropped = 0
    }

    private func countInChunk(_ index: Int) -> Int {
        index < chunks.count - 1 ? Self.chunkCapacity : stored - index * Self.chunkCapacity
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
