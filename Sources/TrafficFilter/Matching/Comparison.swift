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
        /// The suffixes and their factors (``UnitTable``, shared with the command line).
        let table: UnitTable
        /// Whether several number-and-unit parts add up (`3m12s`), as the dashboard writes
        /// durations; a size has one number and one unit.
        let compound: Bool
    }

    /// Seconds per duration unit; a bare number is seconds.
    static let durationUnits = Units(table: .durations, compound: true)
    /// Bytes per size unit, 1024-based; a bare number is bytes.
    static let byteUnits = Units(table: .sizes, compound: false)
    /// No units: a bare whole number.
    static let noUnits = Units(table: .unitless, compound: false)

    /// Reads `text` (starting at `column`) as a number followed by one of `units`
    /// (case-insensitive); compound units add further number-and-unit parts.
    /// - Throws: ``FilterParseError/invalidValue(column:found:expected:)`` naming what is missing.
    static func parse(_ text: String, column: Int, units: Units, what: String) throws(FilterParseError) -> Double {
        let characters = Array(text)
        let expected = units.table.factors.isEmpty
            ? "a whole number (\(what))" : "\(what): a number with an optional unit (\(units.table.listed))"
        let expectedUnit = units.table.factors.isEmpty ? expected : "a unit (\(units.table.listed))"
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
            guard let factor = units.table.factor(of: unitText) else {
                throw .invalidValue(column: column + unitStart, found: String(characters[unitStart...]), expected: expectedUnit)
            }
            total += number * factor
            parts += 1
            if index < characters.count, !units.compound {
                throw .invalidValue(column: column + index, found: String(characters[index...]), expected: "the end of \(what)")
            }
        } while index < characters.count
        // A unitless number is a whole one (a status code): `200.5` or twenty digits would be
        // taken and match nothing.
        if units.table.factors.isEmpty, negative || total != total.rounded(.down) || total > 999_999 {
            throw .invalidValue(column: column, found: text, expected: expected)
        }
        return negative ? -total : total
    }
}
