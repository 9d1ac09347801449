import Foundation

/// The alternative index the store did not choose, built only to measure it: an
/// append-only journal of length-prefixed, checksummed records, replayed into a dictionary
/// at open. (A real one would also need compaction and tombstones; the measured parts are
/// the ones that decide: commit cost and replay cost.)
struct JournalPrototype {
    private let descriptor: Int32
    let path: String

    init(path: String) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0, "cannot open \(path)")
    }

    func close() { _ = Glibc.close(descriptor) }

    /// Appends one batch of records in one write; with `sync`, fdatasync after it.
    func append(_ records: [[UInt8]], sync: Bool) {
        var buffer: [UInt8] = []
        for record in records {
            withUnsafeBytes(of: UInt32(record.count).littleEndian) { buffer.append(contentsOf: $0) }
            withUnsafeBytes(of: Self.checksum(record).littleEndian) { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: record)
        }
        let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == buffer.count)
        if sync { fdatasync(descriptor) }
    }

    /// Reads the whole journal and applies every valid record (last one per key wins); stops
    /// at the first torn or damaged record, as recovery after a crash would. Returns the
    /// number of live keys.
    static func replay(path: String) -> Int {
        let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
        return bytes.withUnsafeBytes { raw -> Int in
            var live: [Key: Int] = [:]
            live.reserveCapacity(raw.count / 256)
            var offset = 0
            while offset + 8 <= raw.count {
                let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let sum = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let start = offset + 8
                guard length >= 32, start + length <= raw.count else { break }
                let record = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
                guard checksum(record) == sum else { break }
                live[Key(record)] = start
                offset = start + length
            }
            return live.count
        }
    }

    /// FNV-1a, 32 bits: enough to find a torn tail.
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    struct Key: Hashable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(_ raw: UnsafeRawBufferPointer) {
            a = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            b = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            c = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            d = raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        }
    }
}
