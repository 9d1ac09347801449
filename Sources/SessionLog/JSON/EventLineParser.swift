import CacheEvents
import HTTPCaching

/// Turns one session-log line into a ``CacheEvent`` without `JSONDecoder`: ``JSONScanner``
/// validates the line and files each top-level value under its ``EventField``; the payload is
/// then built straight from the bytes, with long strings shared through a ``StringInterner``.
///
/// It accepts exactly what the writer produces and the obvious variations (any field order,
/// unknown fields, `null` for absent optionals, escapes). Anything else it is unsure about —
/// a number with an exponent where an integer is due, a missing field, an `entries`
/// snapshot — comes back as ``Outcome/needsDecoder`` so the caller asks `JSONDecoder`, which
/// either reads it or explains what is wrong.
final class EventLineParser {
    /// What one line held.
    enum Outcome {
        /// An event.
        case event(CacheEvent)
        /// A well-formed event of a kind this version does not know.
        case unknownKind(String)
        /// Valid JSON, but not an object.
        case notAnObject(JSONKind)
        /// Valid JSON this parser leaves to `JSONDecoder`.
        case needsDecoder
    }

    private var interner = StringInterner()
    private var headerLists = HeaderListInterner()
    /// The `name`/`value` spans of the line's `headers` list, when it has the usual shape.
    private var headerPairs: [(name: JSONSpan, value: JSONSpan)] = []
    private var headersRegular = false
    /// Per field: where its value lies, valid when its stamp equals `generation` (so nothing
    /// needs clearing between lines).
    private let slots = UnsafeMutableBufferPointer<JSONSpan>.allocate(capacity: EventField.allCases.count)
    private let stamps = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: EventField.allCases.count)
    private var generation: UInt32 = 0

    init() {
        slots.initialize(repeating: .missing)
        stamps.initialize(repeating: 0)
    }

    deinit {
        slots.deallocate()
        stamps.deallocate()
    }

    /// Parses one line (without its newline).
    /// - Throws: ``JSONSyntaxError`` when the line is not JSON.
    func parse(_ line: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Outcome {
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { throw JSONSyntaxError(offset: 0, problem: .unexpectedEnd) }
        guard line[scanner.position] == UInt8(ascii: "{") else {
            let span = try scanner.value()
            try scanner.expectEnd()
            return .notAnObject(span.kind)
        }
        generation &+= 1
        if generation == 0 {
            stamps.update(repeating: 0)
            generation = 1
        }
        scanner.position += 1
        headersRegular = false
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard !scanner.isAtEnd else { throw JSONSyntaxError(offset: scanner.position, problem: .unexpectedEnd) }
                guard line[scanner.position] == 0x22 else { throw scanner.unexpected(at: scanner.position) }
                let key = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                let field = key.flag ? nil : EventField.lookup(UnsafeBufferPointer(rebasing: line[key.start..<key.end]))
                let value: JSONSpan
                if field == .headers {
                    value = try scanHeaderList(&scanner)
                } else {
                    value = try scanner.value(depth: 1)
                }
                if let field {
                    slots[field.rawValue] = value
                    stamps[field.rawValue] = generation
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        try scanner.expectEnd()
        // The interners move into the reader and back, so their tables are never copied.
        var strings = StringInterner()
        var lists = HeaderListInterner()
        swap(&strings, &interner)
        swap(&lists, &headerLists)
        var reader = EventFieldReader(
            line: line, slots: UnsafeBufferPointer(slots), stamps: UnsafeBufferPointer(stamps), generation: generation,
            interner: strings, headerLists: lists, headerPairs: headersRegular ? headerPairs : nil)
        let outcome = reader.event()
        swap(&reader.interner, &interner)
        swap(&reader.headerLists, &headerLists)
        return outcome
    }

    /// Scans (and validates) a `headers` value in one pass, noting the `name` and `value`
    /// spans of each `{"name":…,"value":…}` element. Any other shape is still validated but
    /// marks the list irregular, leaving it to the general path.
    private func scanHeaderList(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> JSONSpan {
        scanner.skipWhitespace()
        let start = scanner.position
        guard start < scanner.bytes.count, scanner.bytes[start] == UInt8(ascii: "[") else { return try scanner.value(depth: 1) }
        headerPairs.removeAll(keepingCapacity: true)
        var regular = true
        scanner.position += 1
        if !scanner.consume(UInt8(ascii: "]")) {
            repeat {
                scanner.skipWhitespace()
                guard scanner.position < scanner.bytes.count, scanner.bytes[scanner.position] == UInt8(ascii: "{") else {
                    _ = try scanner.value(depth: 2)
                    regular = false
                    continue
                }
                scanner.position += 1
                var name: JSONSpan?
                var value: JSONSpan?
                if !scanner.consume(UInt8(ascii: "}")) {
                    repeat {
                        scanner.skipWhitespace()
                        guard !scanner.isAtEnd else { throw JSONSyntaxError(offset: scanner.position, problem: .unexpectedEnd) }
                        guard scanner.bytes[scanner.position] == 0x22 else { throw scanner.unexpected(at: scanner.position) }
                        let key = try scanner.string()
                        try scanner.expect(UInt8(ascii: ":"))
                        let member = try scanner.value(depth: 3)
                        let keyBytes = UnsafeBufferPointer(rebasing: scanner.bytes[key.start..<key.end])
                        if !key.flag, Self.spells(keyBytes, "name") {
                            name = member
                        } else if !key.flag, Self.spells(keyBytes, "value") {
                            value = member
                        }
                    } while scanner.consume(UInt8(ascii: ","))
                    try scanner.expect(UInt8(ascii: "}"))
                }
                if let name, let value, name.kind == .string, value.kind == .string {
                    headerPairs.append((name, value))
                } else {
                    regular = false
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"))
        }
        headersRegular = regular
        return JSONSpan(start: start, end: scanner.position, kind: .array, flag: false)
    }

    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }
}
