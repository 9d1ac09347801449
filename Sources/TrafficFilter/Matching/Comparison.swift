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

/// Numbers with units, as filters write them: `30s`, `5m`, `1.5h`, `1MB`, `512`.
enum Quantity {
    /// Seconds per duration unit; a bare number is seconds.
    static let durationUnits: [(String, Double)] = [("s", 1), ("m", 60), ("h", 3600)]
    /// Bytes per size unit (1024-based, as the dashboard shows sizes); a bare number is bytes.
    static let byteUnits: [(String, Double)] = [("b", 1), ("kb", 1024), ("mb", 1024 * 1024), ("gb", 1024 * 1024 * 1024)]

    /// Reads `text` (starting at `column`) as a number followed by one of `units` (case-insensitive).
    /// - Throws: ``FilterParseError/invalidValue(column:found:expected:)`` naming what is missing.
    static func parse(
        _ text: String, column: Int, units: [(String, Double)], what: String
    ) throws(FilterParseError) -> Double {
        let characters = Array(text)
        var index = 0
        if index < characters.count, characters[index] == "-" { index += 1 }
        let digitsStart = index
        while index < characters.count, characters[index].isASCII, characters[index].isNumber || characters[index] == "." {
            index += 1
        }
        let unitText = String(characters[index...]).lowercased()
        let unitNames = units.map { $0.0.uppercased() == "B" || $0.0.count > 1 ? $0.0.uppercased() : $0.0 }
        let expected = units.isEmpty ? "a whole number (\(what))" : "\(what): a number with an optional unit (\(unitNames.joined(separator: " ")))"
        guard index > digitsStart, let number = Double(String(characters[..<index])) else {
            throw .invalidValue(column: column, found: text, expected: expected)
        }
        if unitText.isEmpty { return number }
        guard let factor = units.first(where: { $0.0 == unitText })?.1 else {
            throw .invalidValue(column: column + index, found: String(characters[index...]),
                                expected: units.isEmpty ? expected : "a unit (\(unitNames.joined(separator: " ")))")
        }
        return number * factor
    }
}
