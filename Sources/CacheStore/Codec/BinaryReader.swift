import Foundation

/// Reads what ``BinaryWriter`` wrote, checking every length against the bytes left: a
/// damaged buffer throws ``BinaryReader/Failure`` instead of reading out of bounds.
struct BinaryReader {
    /// Why a buffer could not be decoded.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    /// Runs `body` with a reader over `bytes` (typed-throws friendly: the standard library's
    /// `withUnsafeBytes` rethrows untyped errors).
    static func reading<T>(_ bytes: [UInt8], _ body: (inout BinaryReader) throws(Failure) -> T) throws(Failure) -> T {
        let result: Result<T, Failure> = bytes.withUnsafeBytes { raw in
            var reader = BinaryReader(raw)
            do throws(Failure) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func readUInt8() throws(Failure) -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBool() throws(Failure) -> Bool {
        switch try readUInt8() {
        case 0: return false
        case 1: return true
        case let other: throw Failure(description: "invalid flag byte \(other) at offset \(offset - 1)")
        }
    }

    mutating func readUInt16() throws(Failure) -> UInt16 { try readInteger() }

    mutating func readUInt32() throws(Failure) -> UInt32 { try readInteger() }

    mutating func readUInt64() throws(Failure) -> UInt64 { try readInteger() }

    mutating func readDouble() throws(Failure) -> Double { Double(bitPattern: try readInteger()) }

    mutating func readDate() throws(Failure) -> Date {
        let seconds = try readDouble()
        guard seconds.isFinite else { throw Failure(description: "non-finite date at offset \(offset - 8)") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    mutating func readOptionalDate() throws(Failure) -> Date? {
        try readBool() ? try readDate() : nil
    }

    mutating func readString() throws(Failure) -> String {
        let count = Int(try readUInt32())
        try need(count)
        defer { offset += count }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw Failure(description: "invalid UTF-8 at offset \(offset)")
        }
        return string
    }

    mutating func readOptionalString() throws(Failure) -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readBlob() throws(Failure) -> [UInt8] {
        let count = Int(try readUInt32())
        return try readRaw(count)
    }

    mutating func readRaw(_ count: Int) throws(Failure) -> [UInt8] {
        try need(count)
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    private mutating func readInteger<T: FixedWidthInteger>() throws(Failure) -> T {
        let size = MemoryLayout<T>.size
        try need(size)
        defer { offset += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    private func need(_ count: Int) throws(Failure) {
        guard count >= 0, count <= remaining else {
            throw Failure(description: "needs \(count) bytes at offset \(offset), \(remaining) left")
        }
    }
}
