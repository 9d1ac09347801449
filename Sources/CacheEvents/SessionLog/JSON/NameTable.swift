/// Finds which of a fixed set of names some raw bytes spell, without building a `String`:
/// an open-addressing table over length and three sampled bytes, confirmed byte for byte.
/// The event parser looks up every key (and every `kind`) of every line through one.
struct NameTable: Sendable {
    private static let size = 256
    private let names: [[UInt8]]
    private let cells: [Int16]

    /// A table of `names`; a lookup returns a name's index in this array.
    init(_ names: [String]) {
        precondition(names.count < Self.size / 2, "keep the table sparse")
        self.names = names.map { Array($0.utf8) }
        var cells = [Int16](repeating: -1, count: Self.size)
        for (index, name) in self.names.enumerated() {
            var cell = name.withUnsafeBufferPointer { Self.slot($0) }
            while cells[cell] != -1 { cell = (cell + 1) & (Self.size - 1) }
            cells[cell] = Int16(index)
        }
        self.cells = cells
    }

    /// The index of the name `bytes` spell, or `nil`.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var cell = Self.slot(bytes)
        while true {
            let raw = cells[cell]
            if raw < 0 { return nil }
            let candidate = names[Int(raw)]
            if candidate.count == bytes.count, candidate.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
                return Int(raw)
            }
            cell = (cell + 1) & (Self.size - 1)
        }
    }

    private static func slot(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        let count = name.count
        guard count > 0 else { return 0 }
        let mix = count &* 31 &+ Int(name[0]) &* 7 &+ Int(name[count - 1]) &* 13 &+ Int(name[count / 2]) &* 3
        return mix & (size - 1)
    }
}
