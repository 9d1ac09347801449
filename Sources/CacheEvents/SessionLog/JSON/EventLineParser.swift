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
struct EventLineParser {
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
    private var slots = [JSONSpan](repeating: .missing, count: EventField.allCases.count)
    private var present = [Bool](repeating: false, count: EventField.allCases.count)

    /// Parses one line (without its newline).
    /// - Throws: ``JSONSyntaxError`` when the line is not JSON.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Outcome {
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { throw JSONSyntaxError(offset: 0, problem: .unexpectedEnd) }
        guard line[scanner.position] == UInt8(ascii: "{") else {
            let span = try scanner.value()
            try scanner.expectEnd()
            return .notAnObject(span.kind)
        }
        for index in present.indices { present[index] = false }
        scanner.position += 1
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard !scanner.isAtEnd else { throw JSONSyntaxError(offset: scanner.position, problem: .unexpectedEnd) }
                guard line[scanner.position] == 0x22 else { throw scanner.unexpected(at: scanner.position) }
                let key = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                let value = try scanner.value(depth: 1)
                if !key.flag, let field = EventField.lookup(UnsafeBufferPointer(rebasing: line[key.start..<key.end])) {
                    slots[field.rawValue] = value
                    present[field.rawValue] = true
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        try scanner.expectEnd()
        // The interner moves into the reader and back, so its table is never copied.
        var shared = StringInterner()
        swap(&shared, &interner)
        var reader = FieldReader(line: line, slots: slots, present: present, interner: shared)
        let outcome = reader.event()
        swap(&reader.interner, &interner)
        return outcome
    }
}

/// Reads typed values out of the spans one line's fields were filed under. Any missing
/// required field or unexpected type clears ``valid``, and the line goes to `JSONDecoder`.
private struct FieldReader {
    let line: UnsafeBufferPointer<UInt8>
    let slots: [JSONSpan]
    let present: [Bool]
    var interner: StringInterner
    var valid = true

    init(line: UnsafeBufferPointer<UInt8>, slots: [JSONSpan], present: [Bool], interner: StringInterner) {
        self.line = line
        self.slots = slots
        self.present = present
        self.interner = interner
    }

    mutating func event() -> EventLineParser.Outcome {
        let seq = unsigned(.seq)
        let time = double(.t)
        let requestID = optionalUnsigned(.req)
        guard valid, present[EventField.kind.rawValue], slots[EventField.kind.rawValue].kind == .string else { return .needsDecoder }
        let kindSpan = slots[EventField.kind.rawValue]
        let kindBytes = UnsafeBufferPointer(rebasing: line[kindSpan.start..<kindSpan.end])
        guard !kindSpan.flag, let kindIndex = EventLineParserKinds.table.lookup(kindBytes) else {
            return .unknownKind(JSONStringDecoding.decode(kindSpan, in: line, interner: &interner))
        }
        guard let kind = payload(kindIndex), valid else { return .needsDecoder }
        return .event(CacheEvent(seq: seq, time: time, requestID: requestID, kind: kind))
    }

    // MARK: Payloads

    private mutating func payload(_ index: Int) -> CacheEventKind? {
        switch index {
        case 0:
            return .requestStarted(RequestStarted(
                method: string(.method), url: string(.url), cacheKey: string(.cacheKey), policy: string(.policy),
                headers: headers(.headers)))
        case 1:
            return .lookup(Lookup(verdict: value(.verdict, or: LookupVerdict.miss), reason: string(.reason), age: optionalDouble(.age), ttl: optionalDouble(.ttl)))
        case 2:
            return .revalidationSent(RevalidationSent(
                ifNoneMatch: optionalString(.ifNoneMatch), ifModifiedSince: optionalString(.ifModifiedSince),
                background: bool(.background)))
        case 3:
            return .notModified(NotModified(freshened: int(.freshened), ttl: optionalDouble(.ttl)))
        case 4:
            return .modified(Modified(status: int(.status)))
        case 5:
            return .served(Served(
                source: value(.source, or: ServedSource.network), status: int(.status), bytes: int(.bytes), outcome: value(.outcome, or: CacheOutcome.miss),
                reason: string(.reason), age: optionalDouble(.age), ttl: optionalDouble(.ttl), headers: headers(.headers)))
        case 6:
            return .stored(Stored(
                entry: entryRef(.entry), tier: value(.tier, or: StoreTier.memory), size: int(.size), ttl: optionalDouble(.ttl),
                etag: optionalString(.etag), lastModified: optionalString(.lastModified), status: int(.status)))
        case 7:
            return .promoted(EntryRef(key: string(.key), variant: string(.variant)))
        case 8:
            return .evicted(Evicted(entry: entryRef(.entry), reason: value(.reason, or: EvictionReason.capacity), tier: value(.tier, or: StoreTier.memory), size: int(.size)))
        case 9:
            return .purged(Purged(scope: value(.scope, or: PurgeScope.all), key: optionalString(.key), count: int(.count)))
        case 10:
            return .coalesced(Coalesced(leaderID: unsigned(.leaderID)))
        case 11:
            return .requestFinished(RequestFinished(
                status: int(.status), latency: double(.latency), bytesFromNetwork: int(.bytesFromNetwork),
                bytesFromCache: int(.bytesFromCache), outcome: value(.outcome, or: CacheOutcome.miss), reason: string(.reason),
                coalesced: bool(.coalesced)))
        case 12:
            return .error(ErrorInfo(message: string(.message)))
        case 13:
            return .storeStats(StoreStats(
                memoryUsed: int(.memoryUsed), memoryCapacity: int(.memoryCapacity), diskUsed: int(.diskUsed),
                diskCapacity: int(.diskCapacity), entries: int(.entries)))
        case 15:
            return .command(CommandInfo(name: string(.name), key: optionalString(.key)))
        case 16:
            return .dropped(Dropped(count: int(.count)))
        default:
            return nil  // `entries` snapshots (rare, nested) go to JSONDecoder
        }
    }

    // MARK: Scalars

    private func span(_ field: EventField) -> JSONSpan? {
        present[field.rawValue] ? slots[field.rawValue] : nil
    }

    private func text(_ span: JSONSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[span.start..<span.end])
    }

    private mutating func string(_ field: EventField) -> String {
        guard let span = span(field), span.kind == .string else { valid = false; return "" }
        return JSONStringDecoding.decode(span, in: line, interner: &interner)
    }

    private mutating func optionalString(_ field: EventField) -> String? {
        guard let span = span(field), span.kind != .null else { return nil }
        guard span.kind == .string else { valid = false; return nil }
        return JSONStringDecoding.decode(span, in: line, interner: &interner)
    }

    /// An enumeration's case by raw value; `fallback` (never used: the line is rejected) otherwise.
    private mutating func value<Value: RawRepresentable>(_ field: EventField, or fallback: Value) -> Value where Value.RawValue == String {
        guard let span = span(field), span.kind == .string, !span.flag,
            let value = Value(rawValue: String(decoding: text(span), as: UTF8.self))
        else {
            valid = false
            return fallback
        }
        return value
    }

    private mutating func int(_ field: EventField) -> Int {
        guard let span = span(field), span.kind == .number, !span.flag, let value = JSONNumberParsing.int(text(span)) else {
            valid = false
            return 0
        }
        return value
    }

    private mutating func unsigned(_ field: EventField) -> UInt64 {
        guard let span = span(field), span.kind == .number, !span.flag, let value = JSONNumberParsing.unsigned(text(span)) else {
            valid = false
            return 0
        }
        return value
    }

    private mutating func optionalUnsigned(_ field: EventField) -> UInt64? {
        guard let span = span(field), span.kind != .null else { return nil }
        guard span.kind == .number, !span.flag, let value = JSONNumberParsing.unsigned(text(span)) else { valid = false; return nil }
        return value
    }

    private mutating func double(_ field: EventField) -> Double {
        guard let span = span(field), span.kind == .number, let value = JSONNumberParsing.double(text(span)) else {
            valid = false
            return 0
        }
        return value
    }

    private mutating func optionalDouble(_ field: EventField) -> Double? {
        guard let span = span(field), span.kind != .null else { return nil }
        guard span.kind == .number, let value = JSONNumberParsing.double(text(span)) else { valid = false; return nil }
        return value
    }

    private mutating func bool(_ field: EventField) -> Bool {
        guard let span = span(field) else { valid = false; return false }
        switch span.kind {
        case .true: return true
        case .false: return false
        default: valid = false; return false
        }
    }

    // MARK: Nested values

    /// `[{"name":…,"value":…},…]`; other keys in the objects are ignored.
    private mutating func headers(_ field: EventField) -> [HeaderField] {
        guard let span = span(field), span.kind == .array else { valid = false; return [] }
        var fields: [HeaderField] = []
        var scanner = JSONScanner(line, position: span.start + 1)
        if scanner.consume(UInt8(ascii: "]")) { return fields }
        repeat {
            guard let object = try? scanner.value(depth: 1), object.kind == .object,
                let pair = twoStrings(in: object, first: "name", second: "value")
            else { valid = false; return [] }
            fields.append(HeaderField(name: pair.0, value: pair.1))
        } while scanner.consume(UInt8(ascii: ","))
        return fields
    }

    /// `{"key":…,"variant":…}`.
    private mutating func entryRef(_ field: EventField) -> EntryRef {
        guard let span = span(field), span.kind == .object, let pair = twoStrings(in: span, first: "key", second: "variant") else {
            valid = false
            return EntryRef(key: "")
        }
        return EntryRef(key: pair.0, variant: pair.1)
    }

    /// The two named string members of an (already validated) object.
    private mutating func twoStrings(in object: JSONSpan, first: StaticString, second: StaticString) -> (String, String)? {
        var scanner = JSONScanner(line, position: object.start + 1)
        var firstValue: String?
        var secondValue: String?
        if scanner.consume(UInt8(ascii: "}")) { return nil }
        repeat {
            scanner.skipWhitespace()
            guard let key = try? scanner.string(), (try? scanner.expect(UInt8(ascii: ":"))) != nil,
                let value = try? scanner.value(depth: 2)
            else { return nil }
            let name = text(key)
            let isFirst = first.withUTF8Buffer { $0.elementsEqual(name) }
            let isSecond = !isFirst && second.withUTF8Buffer { $0.elementsEqual(name) }
            guard isFirst || isSecond else { continue }
            guard value.kind == .string, !key.flag else { return nil }
            let decoded = JSONStringDecoding.decode(value, in: line, interner: &interner)
            if isFirst { firstValue = decoded } else { secondValue = decoded }
        } while scanner.consume(UInt8(ascii: ","))
        guard let firstValue, let secondValue else { return nil }
        return (firstValue, secondValue)
    }
}

/// The kind names in the order ``FieldReader`` switches over them.
private enum EventLineParserKinds {
    static let table = NameTable([
        "requestStarted", "lookup", "revalidationSent", "notModified", "modified", "served", "stored",
        "promoted", "evicted", "purged", "coalesced", "requestFinished", "error", "storeStats", "entries",
        "command", "dropped",
    ])
}
