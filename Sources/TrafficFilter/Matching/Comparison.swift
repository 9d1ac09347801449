/// A numeric comparison: `status>=500`, `ttl<30s`, `size:0`.
struct Comparison: Sendable, Hashable {
    enum Relation: String, Sendable, Hashable {
        case equal = "="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    let relation: Relation
    let value: Double

    func matches(_ number: Double) -> Bool {
        switch relation {
        case .equal: number == value
        case .less: number < value
        case .lessOrEqual: number <= value
        case .greater: number > value
        case .greaterOrEqual: number >= value
        }
    }
}

/// Numbers with units, as filters write them and as the dashboard shows them: `30s`, `5m`,
/// `1.5h`, `2d`, `3m12s`, `1d3h`, `512`, `1MB`, `1.2KiB`, `34M`.
enum Quantity {
    /// The units one kind of quantity accepts.
    struct Units: Sendable {
        /// Factor per unit name (lowercase).
        let factors: [(String, Double)]
        /// The names an error message lists.
        let listed: String
        /// Whether several number-and-unit parts add up (`3m12s`), as the dashboard writes
        /// durations; a size has one number and one unit.
        let compound: Bool
    }

    /// Seconds per duration unit; a bare number is seconds.
    static let durationUnits = Units(
        factors: [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)], listed: "s m h d", compound: true)
    /// Bytes per size unit, 1024-based as the dashboard shows sizes, in each spelling the
    /// dashboard or a user writes (`M` in narrow columns, `MiB` in the header, `MB`); a bare
    /// number is bytes.
    static let byteUnits = Units(
        factors: [("b", 1)] + [("k", 1), ("m", 2), ("g", 3), ("t", 4)].flatMap { prefix, power in
            let size = (0..<power).reduce(1.0) { product, _ in product * 1024 }
            return [(prefix, size), (prefix + "b", size), (prefix + "ib", size)]
        },
        listed: "B KB MB GB TB", compound: false)
    /// No units: a bare whole number.
    static let noUnits = Units(factors: [], listed: "", compound: false)

    /// Reads `text` (starting at `column`) as a number followed by one of `units`
    /// (case-insensitive); compound units add further number-and-unit parts.
    /// - Throws: ``FilterParseError/invalidValue(column:found:expected:)`` naming what is missing.
    static func parse(_ text: String, column: Int, units: Units, what: String) throws(FilterParseError) -> Double {
        let characters = Array(text)
        let expected = units.factors.isEmpty
            ? "a whole number (\(what))" : "\(what): a number with an optional unit (\(units.listed))"
        let expectedUnit = units.factors.isEmpty ? expected : "a unit (\(units.listed))"
        var index = 0
        let negative = characters.first == "-"
        if negative { index += 1 }
        var total = 0.0
        var parts = 0
        repeat {
            let digitsStart = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber || characters[index] == "." {
                index += 1
            }
            guard index > digitsStart, let number = Double(String(characters[digitsStart..<index])) else {
                if parts == 0 { throw .invalidValue(column: column, found: text, expected: expected) }
                throw .invalidValue(column: column + digitsStart, found: String(characters[digitsStart...]), expected: "a number")
            }
            let unitStart = index
            while index < characters.count, characters[index].isLetter { index += 1 }
            let unitText = String(characters[unitStart..<index]).lowercased()
            if unitText.isEmpty {
                // A bare number: seconds or bytes, alone or as the last part (`1m30`).
                guard index == characters.count else {
                    throw .invalidValue(column: column + index, found: String(characters[index...]), expected: expectedUnit)
                }
                total += number
                break
            }
            guard let factor = units.factors.first(where: { $0.0 == unitText })?.1 else {
                throw .invalidValue(column: column + unitStart, found: String(characters[unitStart...]), expected: expectedUnit)
            }
            total += number * factor
            parts += 1
            if index < characters.count, !units.compound {
                throw .invalidValue(column: column + index, found: String(characters[index...]), expected: "the end of \(what)")
            }
        } while index < characters.count
        return negative ? -total : total
    }
}
