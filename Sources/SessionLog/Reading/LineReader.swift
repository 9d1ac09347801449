import CacheEvents
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line as ``LineReader`` hands it out.
enum InputLine {
    /// A line's bytes (without `\n` or a trailing `\r`); `terminated` is false only for a
    /// last line that ends without a newline.
    case text(UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool)
    /// A line longer than the limit, skipped without being held in memory.
    case tooLong(number: Int, length: Int)
}

/// Splits a byte range of a file into lines, reading large chunks and holding at most one
/// chunk plus one line: memory stays flat however big the file. Lines over `maximumLength`
/// are measured and skipped, never buffered. Lines are numbered from 1 within the range.
struct LineReader {
    private let file: InputFile
    private let range: Range<Int>
    private let maximumLength: Int
    private let chunkSize: Int

    init(file: InputFile, range: Range<Int>, maximumLength: Int, chunkSize: Int = 4 << 20) {
        self.file = file
        self.range = range
        self.maximumLength = maximumLength
        self.chunkSize = max(chunkSize, maximumLength + 1)
    }

    /// Calls `body` for every line in order, until it returns `false`.
    func forEachLine(_ body: (InputLine) -> Bool) throws(FileAccessProblem) {
        let capacity = chunkSize + maximumLength + 1
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { storage.deallocate() }
        var offset = range.lowerBound  // next file offset to read
        var start = 0  // first byte of the current (incomplete) line
        var end = 0  // bytes filled
        var lineNumber = 0
        var skipping: Int?  // length so far of an over-long line being skipped
        while offset < range.upperBound {
            // Move the incomplete line to the front, then fill the rest.
            if start > 0 {
                if end > start { memmove(storage.baseAddress!, storage.baseAddress! + start, end - start) }
                end -= start
                start = 0
            }
            let wanted = min(capacity - end, range.upperBound - offset)
            let count = try file.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: storage[end..<(end + wanted)])), at: offset)
            if count == 0 { break }
            offset += count
            var scan = end
            end += count
            while scan < end {
                guard let found = memchr(storage.baseAddress! + scan, 0x0A, end - scan) else { break }
                let newline = storage.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                if let skipped = skipping {
                    skipping = nil
                    guard body(.tooLong(number: lineNumber, length: skipped + newline - start)) else { return }
                } else if newline - start > maximumLength {
                    guard body(.tooLong(number: lineNumber, length: newline - start)) else { return }
                } else {
                    guard body(.text(Self.trimmed(storage, start, newline), number: lineNumber, terminated: true)) else { return }
                }
                start = newline + 1
                scan = start
            }
            // No newline in the remainder: if it is already too long, drop its bytes.
            if end - start > maximumLength {
                skipping = (skipping ?? 0) + (end - start)
                start = end
            }
        }
        guard end > start || skipping != nil else { return }
        lineNumber += 1
        if let skipped = skipping {
            _ = body(.tooLong(number: lineNumber, length: skipped + end - start))
        } else {
            _ = body(.text(Self.trimmed(storage, start, end), number: lineNumber, terminated: false))
        }
    }

    /// The offset just past the first newline at or after `offset` (before `limit`), or `limit`.
    static func nextLineStart(in file: InputFile, after offset: Int, limit: Int) throws(FileAccessProblem) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var position = offset
        while position < limit {
            let wanted = min(buffer.count, limit - position)
            let count = try buffer.withUnsafeMutableBytes { raw -> Result<Int, FileAccessProblem> in
                Result { () throws(FileAccessProblem) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), at: position) }
            }.get()
            if count == 0 { return limit }
            if let index = buffer[..<count].firstIndex(of: 0x0A) { return position + index + 1 }
            position += count
        }
        return limit
    }

    private static func trimmed(_ storage: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        var end = end
        if end > start, storage[end - 1] == 0x0D { end -= 1 }
        return UnsafeBufferPointer(rebasing: storage[start..<end])
    }
}
