import CacheEvents
/// Appends compact JSON to a byte buffer without building intermediate values: the session
/// recorder writes about a million events a second through it, where `JSONEncoder` manages
/// about a tenth of that (figures in `docs/session-log.md`).
///
/// It tracks only whether a comma is due, so callers must pair `beginObject`/`endObject` and
/// `beginArray`/`endArray` themselves; it never validates nesting.
struct JSONLineWriter {
    /// The bytes written so far.
    var bytes: [UInt8]
    private var atStart = true

    init(capacity: Int = 64 * 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        atStart = true
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        atStart = false
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        atStart = true
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        atStart = false
    }

    /// Writes `,"name":` (or `"name":` first in an object). `name` must need no escaping.
    mutating func key(_ name: StaticString) {
        if !atStart { bytes.append(UInt8(ascii: ",")) }
        atStart = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Prepares for the next array element (a comma unless it is the first).
    mutating func element() {
        if !atStart { bytes.append(UInt8(ascii: ",")) }
        atStart = false
    }

    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        atStart = true
    }

    // MARK: Values

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { appendEscaped($0) }
    }

    mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
        }
    }

    mutating func int(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt(value))
        }
    }

    mutating func unsigned(_ value: UInt64) { unsigned(UInt(value)) }

    mutating func unsigned(_ value: UInt) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while rest > 0 {
                raw[23 - count] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(24 - count)...]))
        }
    }

    /// Writes a finite number the way `JSONEncoder` does: integral values without a fraction
    /// (`4`), others in Swift's shortest round-tripping form (`1.204`, `1e-05`). Callers handle
    /// non-finite values (JSON has none).
    mutating func double(_ value: Double) {
        if value == value.rounded(.towardZero), abs(value) < 9.007_199_254_740_992e15 {
            if value == 0, value.sign == .minus {
                bytes.append(contentsOf: [0x2D, 0x30])  // -0
            } else {
                int(Int(value))
            }
            return
        }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func null() {
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    // MARK: Escaping

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: bytes.append(0x22)
            case 0x5C: bytes.append(0x5C)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
