import CacheEvents
/// Finds which of a fixed set of names some raw bytes spell, without building a `String`:
/// an open-addressing table over length and three sampled bytes, confirmed byte for byte.
/// The event parser looks up every key (and every `kind`) of every line through one.
///
/// `@unchecked Sendable`: the storage is written once in `init` and only read afterwards;
/// tables live in `static let`s for the life of the process, so it is never freed.
struct NameTable: @unchecked Sendable {
    private static let size = 256
    /// All names back to back.
    private let text: UnsafeMutableBufferPointer<UInt8>
    /// Per cell: the name's index, or -1.
    private let cells: UnsafeMutableBufferPointer<Int16>
    /// Per name: start in `text` and length.
    private let starts: UnsafeMutableBufferPointer<Int32>
    private let lengths: UnsafeMutableBufferPointer<Int32>

    /// A table of `names`; a lookup returns a name's index in this array.
    init(_ names: [String]) {
        precondition(names.count < Self.size / 2, "keep the table sparse")
        let utf8 = names.map { Array($0.utf8) }
        text = .allocate(capacity: max(1, utf8.reduce(0) { $0 + $1.count }))
        starts = .allocate(capacity: utf8.count)
        lengths = .allocate(capacity: utf8.count)
        cells = .allocate(capacity: Self.size)
        cells.initialize(repeating: -1)
        var offset = 0
        for (index, name) in utf8.enumerated() {
            starts[index] = Int32(offset)
            lengths[index] = Int32(name.count)
            for byte in name {
                text[offset] = byte
                offset += 1
            }
            var cell = name.withUnsafeBufferPointer { Self.slot($0) }
            while cells[cell] != -1 { cell = (cell + 1) & (Self.size - 1) }
            cells[cell] = Int16(index)
        }
    }

    /// The index of the name `bytes` spell, or `nil`.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var cell = Self.slot(bytes)
        while true {
            let raw = Int(cells[cell])
            if raw < 0 { return nil }
            if Int(lengths[raw]) == bytes.count, equal(bytes, from: Int(starts[raw])) { return raw }
            cell = (cell + 1) & (Self.size - 1)
        }
    }

    private func equal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard let left = bytes.baseAddress, let right = text.baseAddress.map({ $0 + start }) else { return bytes.isEmpty }
        var index = 0
        while index + 8 <= bytes.count {
            if UnsafeRawPointer(left + index).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(right + index).loadUnaligned(as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < bytes.count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    private static func slot(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        let count = name.count
        guard count > 0 else { return 0 }
        let mix = count &* 31 &+ Int(name[0]) &* 7 &+ Int(name[count - 1]) &* 13 &+ Int(name[count / 2]) &* 3
        return mix & (size - 1)
    }
}
