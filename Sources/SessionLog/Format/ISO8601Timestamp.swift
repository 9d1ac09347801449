public import Foundation
import HTTPCaching

/// ISO 8601 timestamps as session logs and HAR files use them: written in UTC with
/// milliseconds (`2025-11-22T09:14:03.512Z`); read with or without fractional seconds and
/// with `Z` or a numeric offset (`+01:00`, `-0500`), as DevTools and Firefox write them.
///
/// Hand-written on ``CivilDate`` so it is locale-free, thread-safe and the same on every
/// platform.
public enum ISO8601Timestamp {
    /// The milliseconds since 1970 a timestamp can name: from `0000-01-01T00:00:00.000Z` to
    /// `9999-12-31T23:59:59.999Z` (four-digit years).
    static let writableMilliseconds: ClosedRange<Double> = -62_167_219_200_000...253_402_300_799_999

    /// Whether `date` can be written as a timestamp (its year is 0 to 9999).
    public static func canWrite(_ date: Date) -> Bool {
        writableMilliseconds.contains((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// `2025-11-22T09:14:03.512Z`. A date outside the years 0 to 9999 (``canWrite(_:)``) is
    /// written as the nearest one inside them.
    public static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let totalMilliseconds = milliseconds.isNaN ? 0 : Int(min(max(milliseconds, writableMilliseconds.lowerBound), writableMilliseconds.upperBound))
        let (days, dayMilliseconds) = totalMilliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = CivilDate.date(fromDays: Int64(days))
        let seconds = dayMilliseconds / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):"
            + "\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// The date a timestamp names, or `nil` when it is not `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        // The fraction as an integer over a power of ten, so the result is rounded only once.
        var fractionDigits = 0
        var fractionScale = 1
        if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
            while index < bytes.count, bytes[index] &- 0x30 < 10 {
                if fractionScale < 1_000_000_000 {
                    fractionDigits = fractionDigits * 10 + Int(bytes[index] &- 0x30)
                    fractionScale *= 10
                }
                index += 1
            }
            guard fractionScale > 1 else { return nil }
        }
        var offsetSeconds = 0
        if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2) else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil  // a time without a zone is ambiguous
        }
        guard index == bytes.count else { return nil }
        let days = Int(CivilDate.days(year: year, month: month, day: day))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds * fractionScale + fractionDigits) / Double(fractionScale))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int {
    /// Division rounding toward negative infinity, with a non-negative remainder.
    fileprivate func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
