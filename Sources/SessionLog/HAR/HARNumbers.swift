/// The times and durations a HAR field may hold (milliseconds, or seconds for `_ttl` and
/// `_age`): 10^15 either side of zero — what an export of a session log's longest durations
/// (10^12 s, `CacheEvent.possibleDurations`) writes in milliseconds, and dates can be made
/// from.
private let possibleTimes: ClosedRange<Double> = -1e15...1e15

extension KeyedDecodingContainer {
    /// A HAR field that holds a whole number (a status, a size, a count). Foundation's decoder
    /// reports a number that is not whole or does not fit in `Int` (`200.5`, `1e20`) as "The
    /// given data was not valid JSON." with no field named; this names the field and the number.
    func decodeWholeNumber(forKey key: Key) throws -> Int {
        try namingTheField(key) { try decode(Int.self, forKey: key) }
    }

    /// ``decodeWholeNumber(forKey:)`` for a field that may be missing or null.
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        try namingTheField(key) { try decodeIfPresent(Int.self, forKey: key) }
    }

    /// A HAR field that holds a time or a duration, which may be missing or null. A number
    /// beyond a `Double`'s range (`1e999`) is reported by its field, as for whole numbers, and
    /// so is one beyond ``possibleTimes`` (`1e23`), from which no date could be made.
    func decodeNumberIfPresent(forKey key: Key) throws -> Double? {
        let number = try namingTheField(key) { try decodeIfPresent(Double.self, forKey: key) }
        if let number, !possibleTimes.contains(number) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key],
                debugDescription: "is \(number), beyond any time or duration a capture holds (at most 1e15 either side of zero)"))
        }
        return number
    }

    /// Runs `decoding`; an error from it that is not a `DecodingError` (Foundation's own, which
    /// names no field) becomes one that names `key` and says what is wrong with its number.
    private func namingTheField<Value>(_ key: Key, _ decoding: () throws -> Value) throws -> Value {
        do {
            return try decoding()
        } catch let error as DecodingError {
            throw error
        } catch {
            let problem =
                if let number = try? decode(Double.self, forKey: key) {
                    "is \(number), not a whole number from \(Int.min) to \(Int.max)"
                } else {
                    "is a number too large to read (beyond ±1.8e308)"
                }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: problem, underlyingError: error))
        }
    }
}
