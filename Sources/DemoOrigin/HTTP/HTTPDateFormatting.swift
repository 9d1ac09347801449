// MARK: - HTTP dates (RFC 9110 §5.6.7) without DateFormatter

/// Formats and parses HTTP dates.
///
/// Formatting always produces IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only form a
/// sender may generate. Parsing accepts the three forms a recipient must accept: IMF-fixdate,
/// the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and ANSI C's asctime form
/// (`Sun Nov  6 08:49:37 1994`). Times are whole seconds since 1970-01-01T00:00:00Z.
///
/// Why not `DateFormatter`: it is slow, locale-sensitive and not needed for a fixed format; the
/// civil-date arithmetic below is Howard Hinnant's `days_from_civil` / `civil_from_days`.
enum HTTPDateFormatting {
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// IMF-fixdate for `seconds` since 1970. Years are clamped to 0...9999 so the result always
    /// has four year digits.
    static func format(secondsSince1970 seconds: Int64) -> String {
        let limit: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
        let clamped = min(max(seconds, -62_167_219_200), limit)  // from 0000-01-01
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let secondOfDay = clamped - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday (index 4)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        bytes.append(contentsOf: dayNames[weekday].utf8)
        bytes.append(contentsOf: ", ".utf8)
        appendDigits(Int(day), width: 2, to: &bytes)
        bytes.append(0x20)
        bytes.append(contentsOf: monthNames[Int(month) - 1].utf8)
        bytes.append(0x20)
        appendDigits(Int(year), width: 4, to: &bytes)
        bytes.append(0x20)
        appendDigits(Int(secondOfDay / 3600), width: 2, to: &bytes)
        bytes.append(0x3A)
        appendDigits(Int(secondOfDay / 60 % 60), width: 2, to: &bytes)
        bytes.append(0x3A)
        appendDigits(Int(secondOfDay % 60), width: 2, to: &bytes)
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds since 1970 for an HTTP date in any of the three accepted forms, or `nil` when the
    /// value is not a valid HTTP date (callers then ignore the field, as RFC 9110 requires).
    static func parse(_ value: String) -> Int64? {
        let tokens = value.split(separator: " ", omittingEmptySubsequences: true)
        switch tokens.count {
        case 6:  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard tokens[0].hasSuffix(","), tokens[5] == "GMT", tokens[1].count == 2,
                tokens[3].count == 4, let year = Int(tokens[3])
            else { return nil }
            return compose(year: year, month: tokens[2], day: tokens[1], time: tokens[4])
        case 4:  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = tokens[1].split(separator: "-", omittingEmptySubsequences: false)
            guard tokens[0].hasSuffix(","), tokens[3] == "GMT", parts.count == 3,
                parts[2].count == 2, let yy = Int(parts[2])
            else { return nil }
            let year = yy < 70 ? 2000 + yy : 1900 + yy
            return compose(year: year, month: parts[1], day: parts[0], time: tokens[2])
        case 5:  // asctime: Sun Nov  6 08:49:37 1994
            guard tokens[4].count == 4, let year = Int(tokens[4]) else { return nil }
            return compose(year: year, month: tokens[1], day: tokens[2], time: tokens[3])
        default:
            return nil
        }
    }

    // MARK: Helpers

    private static func compose(year: Int, month: Substring, day: Substring, time: Substring) -> Int64? {
        guard let monthIndex = monthNames.firstIndex(where: { $0 == month }),
            day.allSatisfy(\.isASCIIDigit), let dayNumber = Int(day), (1...31).contains(dayNumber)
        else { return nil }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let days = self.days(fromYear: Int64(year), month: Int64(monthIndex + 1), day: Int64(dayNumber))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Character {
    /// `true` for the ten ASCII digits only (not other Unicode numerals).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
