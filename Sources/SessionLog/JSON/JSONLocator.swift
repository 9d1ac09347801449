import CacheEvents
/// Finds where a value named by a coding path lies in a JSON document, so a `DecodingError`
/// (which knows only the path) can be reported with a line number.
enum JSONLocator {
    /// The byte offset of the value at `path`, or of the deepest enclosing value that exists
    /// (a missing key points at its object). The document must be valid JSON.
    static func offset(of path: [any CodingKey], in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        var current = scanner.position
        for key in path {
            scanner.position = current
            guard let next = child(of: &scanner, key: key) else { return current }
            current = next
        }
        return current
    }

    /// The offset of the member or element `key` of the container at the scanner's position.
    private static func child(of scanner: inout JSONScanner, key: any CodingKey) -> Int? {
        guard scanner.position < scanner.bytes.count else { return nil }
        switch scanner.bytes[scanner.position] {
        case UInt8(ascii: "{"):
            scanner.position += 1
            if scanner.consume(UInt8(ascii: "}")) { return nil }
            repeat {
                scanner.skipWhitespace()
                guard let name = try? scanner.string(), (try? scanner.expect(UInt8(ascii: ":"))) != nil else { return nil }
                scanner.skipWhitespace()
                let valueStart = scanner.position
                if matches(name, key.stringValue, in: scanner.bytes) { return valueStart }
                guard (try? scanner.value(depth: 1)) != nil else { return nil }
            } while scanner.consume(UInt8(ascii: ","))
            return nil
        case UInt8(ascii: "["):
            guard let index = key.intValue else { return nil }
            scanner.position += 1
            if scanner.consume(UInt8(ascii: "]")) { return nil }
            var current = 0
            repeat {
                scanner.skipWhitespace()
                if current == index { return scanner.position }
                guard (try? scanner.value(depth: 1)) != nil else { return nil }
                current += 1
            } while scanner.consume(UInt8(ascii: ","))
            return nil
        default:
            return nil
        }
    }

    private static func matches(_ span: JSONSpan, _ name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
        if span.flag { return JSONStringDecoding.unescape(raw) == name }
        return name.utf8.elementsEqual(raw)
    }
}
