import HTTPTypes
import CacheEvents
import CacheStore
import HTTPCaching

/// Reads typed values out of the spans one line's fields were filed under. Any missing
/// required field or unexpected type clears ``valid``, and the line goes to `JSONDecoder`.
struct EventFieldReader {
    let line: UnsafeBufferPointer<UInt8>
    let slots: UnsafeBufferPointer<JSONSpan>
    let stamps: UnsafeBufferPointer<UInt32>
    let generation: UInt32
    var interner: StringInterner
    var headerLists: HeaderListInterner
    let headerPairs: [(name: JSONSpan, value: JSONSpan)]?
    var valid = true

    init(
        line: UnsafeBufferPointer<UInt8>, slots: UnsafeBufferPointer<JSONSpan>, stamps: UnsafeBufferPointer<UInt32>,
        generation: UInt32, interner: StringInterner, headerLists: HeaderListInterner,
        headerPairs: [(name: JSONSpan, value: JSONSpan)]?
    ) {
        self.line = line
        self.slots = slots
        self.stamps = stamps
        self.generation = generation
        self.interner = interner
        self.headerLists = headerLists
        self.headerPairs = headerPairs
    }

    private func isPresent(_ field: EventField) -> Bool { stamps[field.rawValue] == generation }

    mutating func event() -> EventLineParser.Outcome {
        let seq = unsigned(.seq)
        let time = double(.t)
        // A time out of range goes to the full decoder, which says what is wrong with it.
        if !CacheEvent.possibleTimes.contains(time) { valid = false }
        let requestID = optionalUnsigned(.req)
        guard valid, isPresent(.kind), slots[EventField.kind.rawValue].kind == .string else { return .needsDecoder }
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
            return .lookup(Lookup(verdict: value(.verdict, or: LookupVerdict.miss), reason: string(.reason), age: optionalDuration(.age), ttl: optionalDuration(.ttl)))
        case 2:
            return .revalidationSent(RevalidationSent(
                ifNoneMatch: optionalString(.ifNoneMatch), ifModifiedSince: optionalString(.ifModifiedSince),
                background: bool(.background)))
        case 3:
            return .notModified(NotModified(
                freshened: amount(.freshened), ttl: optionalDuration(.ttl), headers: isPresent(.headers) ? headers(.headers) : nil))
        case 4:
            return .modified(Modified(status: status(.status)))
        case 5:
            return .served(Served(
                source: value(.source, or: ServedSource.network), status: status(.status), bytes: amount(.bytes), outcome: value(.outcome, or: CacheOutcome.miss),
                reason: string(.reason), age: optionalDuration(.age), ttl: optionalDuration(.ttl), headers: headers(.headers),
                originError: optionalString(.originError), originStatus: optionalStatus(.originStatus)))
        case 6:
            // Tags are a list: such lines (rare) go to JSONDecoder.
            if isPresent(.tags) { valid = false }
            return .stored(Stored(
                entry: entryRef(.entry), tier: value(.tier, or: EntryTier.memory), size: amount(.size), ttl: optionalDuration(.ttl),
                etag: optionalString(.etag), lastModified: optionalString(.lastModified), status: status(.status),
                age: optionalDuration(.age)))
        case 7:
            return .promoted(EntryRef(key: string(.key), variant: string(.variant)))
        case 8:
            return .evicted(Evicted(entry: entryRef(.entry), reason: value(.reason, or: EvictionReason.capacity), tier: value(.tier, or: EntryTier.memory), size: amount(.size)))
        case 9:
            return .purged(Purged(
                scope: PurgeScope(word: optionalString(.scope) ?? "all", key: optionalString(.key), variant: optionalString(.variant), since: optionalDouble(.since),
                    match: optionalString(.match)),
                count: amount(.count), origin: optionalString(.origin)))
        case 10:
            return .coalesced(Coalesced(leaderID: unsigned(.leaderID)))
        case 11:
            return .requestFinished(RequestFinished(
                status: status(.status), latency: duration(.latency), bytesFromNetwork: amount(.bytesFromNetwork),
                bytesFromCache: amount(.bytesFromCache), outcome: value(.outcome, or: CacheOutcome.miss), reason: string(.reason),
                coalesced: bool(.coalesced), background: optionalBool(.background) ?? false))
        case 12:
            return .error(ErrorInfo(message: string(.message)))
        case 13:
            return .storeStats(StoreStats(
                memoryUsed: amount(.memoryUsed), memoryCapacity: int(.memoryCapacity), diskUsed: amount(.diskUsed),
                diskCapacity: int(.diskCapacity), entryCount: amount(.entries)))
        case 15:
            return .command(CommandInfo(name: string(.name), key: optionalString(.key)))
        case 16:
            return .dropped(Dropped(count: amount(.count)))
        default:
            return nil  // `entries` snapshots (rare, nested) go to JSONDecoder
        }
    }

    // MARK: Scalars

    /// An HTTP status; one that is not (``CacheEvent/isPossibleStatus(_:)``) sends the line to
    /// the full decoder, which says what is wrong with it.
    private mutating func status(_ field: EventField) -> Int {
        let status = int(field)
        if !CacheEvent.isPossibleStatus(status) { valid = false }
        return status
    }

    private mutating func optionalStatus(_ field: EventField) -> Int? {
        let status = optionalInt(field)
        if let status, !CacheEvent.isPossibleStatus(status) { valid = false }
        return status
    }

    /// A byte count, size or count; one outside ``CacheEvent/possibleAmounts`` sends the line
    /// to the full decoder, which says what is wrong with it.
    private mutating func amount(_ field: EventField) -> Int {
        let amount = int(field)
        if !CacheEvent.possibleAmounts.contains(amount) { valid = false }
        return amount
    }

    /// A duration in seconds, checked as ``amount(_:)`` is (``CacheEvent/possibleDurations``).
    private mutating func duration(_ field: EventField) -> Double {
        let duration = double(field)
        if !CacheEvent.possibleDurations.contains(duration) { valid = false }
        return duration
    }

    private mutating func optionalDuration(_ field: EventField) -> Double? {
        let duration = optionalDouble(field)
        if let duration, !CacheEvent.possibleDurations.contains(duration) { valid = false }
        return duration
    }

    private func span(_ field: EventField) -> JSONSpan? {
        isPresent(field) ? slots[field.rawValue] : nil
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

    /// An enumeration's case by raw value, found without building a string; `fallback`
    /// (never used: the line is rejected) otherwise.
    private mutating func value<Value: WireEnumeration>(_ field: EventField, or fallback: Value) -> Value {
        guard let span = span(field), span.kind == .string, !span.flag,
            let index = Value.wireNames.lookup(text(span))
        else {
            valid = false
            return fallback
        }
        return Value.wireCases[index]
    }

    private mutating func int(_ field: EventField) -> Int {
        guard let span = span(field), span.kind == .number, !span.flag, let value = JSONNumberParsing.int(text(span)) else {
            valid = false
            return 0
        }
        return value
    }

    private mutating func optionalInt(_ field: EventField) -> Int? {
        guard let span = span(field), span.kind != .null else { return nil }
        guard span.kind == .number, !span.flag, let value = JSONNumberParsing.int(text(span)) else { valid = false; return nil }
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

    /// `nil` when the field is absent (a field added to the format later).
    private mutating func optionalBool(_ field: EventField) -> Bool? {
        guard span(field) != nil else { return nil }
        return bool(field)
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

    /// `[{"name":…,"value":…},…]`, from the spans the parser noted; other keys in the objects
    /// are ignored. Lists of any other shape go to `JSONDecoder`.
    private mutating func headers(_ field: EventField) -> HTTPFields {
        guard let span = span(field), span.kind == .array, let pairs = headerPairs else { valid = false; return [:] }
        let hash = StringInterner.hash(text(span))
        let line = line
        var strings = interner
        interner = StringInterner()
        defer { interner = strings }
        let matches = { (cached: HTTPFields) -> Bool in
            guard cached.count == pairs.count else { return false }
            for (field, pair) in zip(cached, pairs) {
                guard !pair.name.flag, !pair.value.flag else { return false }
                var name = field.name.rawName
                var value = field.value
                let nameBytes = UnsafeBufferPointer(rebasing: line[pair.name.start..<pair.name.end])
                let valueBytes = UnsafeBufferPointer(rebasing: line[pair.value.start..<pair.value.end])
                guard name.withUTF8({ StringInterner.equal($0, nameBytes) }), value.withUTF8({ StringInterner.equal($0, valueBytes) }) else {
                    return false
                }
            }
            return true
        }
        return headerLists.list(hash: hash, matches: matches) { fields, fieldName in
            // Exactly the room needed: a million events' lists would otherwise keep the spare
            // capacity of array growth (a 6-field list would hold room for 8).
            fields.reserveCapacity(pairs.count)
            for pair in pairs {
                let name = JSONStringDecoding.decode(pair.name, in: line, interner: &strings)
                // A recorded name that is not a valid field name is left out.
                guard let validName = fieldName(name) else { continue }
                fields.append(HTTPField(name: validName, value: JSONStringDecoding.decode(pair.value, in: line, interner: &strings)))
            }
        }
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
            guard scanner.position < line.count, line[scanner.position] == 0x22, let key = try? scanner.string(),
                (try? scanner.expect(UInt8(ascii: ":"))) != nil, let value = try? scanner.value(depth: 2)
            else { return nil }
            let name = text(key)
            let isFirst = Self.equal(name, first)
            let isSecond = !isFirst && Self.equal(name, second)
            guard isFirst || isSecond else { continue }
            guard value.kind == .string, !key.flag else { return nil }
            let decoded = JSONStringDecoding.decode(value, in: line, interner: &interner)
            if isFirst { firstValue = decoded } else { secondValue = decoded }
        } while scanner.consume(UInt8(ascii: ","))
        guard let firstValue, let secondValue else { return nil }
        return (firstValue, secondValue)
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }
}

/// The kind names in the order ``EventFieldReader`` switches over them.
private enum EventLineParserKinds {
    static let table = NameTable([
        "requestStarted", "lookup", "revalidationSent", "notModified", "modified", "served", "stored",
        "promoted", "evicted", "purged", "coalesced", "requestFinished", "error", "storeStats", "entries",
        "command", "dropped",
    ])
}
