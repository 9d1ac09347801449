// MARK: - A large body made as it is sent

/// The body of `/large/{KB}`: a first line naming the target, then a repeating alphabet, cut to
/// `size` bytes. Made part by part as the connection takes it, so a 1 GiB body costs the
/// origin one part's memory, not a gigabyte; deterministic, so a test can check every byte.
struct GeneratedBody: Sendable, Equatable {
    /// The repeating pattern after the first line.
    static let pattern = Array("abcdefghijklmnopqrstuvwxyz0123456789\n".utf8)
    /// How much is made and written at a time.
    static let partSize = 64 << 10

    /// The first line (`DemoOrigin /large/2\n`), cut to `size` when that is shorter.
    let firstLine: [UInt8]
    /// The whole length in bytes.
    let size: Int

    init(target: String, size: Int) {
        firstLine = Array("DemoOrigin \(target)\n".utf8.prefix(size))
        self.size = size
    }

    /// The bytes at `range` (within `0..<size`).
    func bytes(_ range: Range<Int>) -> [UInt8] {
        var part = [UInt8]()
        part.reserveCapacity(range.count)
        var offset = range.lowerBound
        if offset < firstLine.count {
            let end = min(range.upperBound, firstLine.count)
            part.append(contentsOf: firstLine[offset..<end])
            offset = end
        }
        let pattern = Self.pattern
        while offset < range.upperBound {
            let start = (offset - firstLine.count) % pattern.count
            let count = min(pattern.count - start, range.upperBound - offset)
            part.append(contentsOf: pattern[start..<(start + count)])
            offset += count
        }
        return part
    }
}
