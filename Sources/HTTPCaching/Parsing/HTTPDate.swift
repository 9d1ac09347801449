public import Foundation

/// Parses and formats HTTP-dates (RFC 9110 §5.6.7) without `DateFormatter`.
///
/// Recipients must accept all three historical forms:
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the only form senders may generate)
/// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`
/// - asctime: `Sun Nov  6 08:49:37 1994`
///
/// Parsing works on the UTF-8 bytes directly (no allocation, no locale), because it runs on
/// every cache lookup (`Date`, `Expires`, `Last-Modified`).
///
/// ```swift
/// let date = HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", reference: now)   // 784111777
/// HTTPDate.format(date!)                                                        // "Sun, 06 Nov 1994 08:49:37 GMT"
/// ```
public enum HTTPDate {
    /// Parses an HTTP-date in any of the three forms; `nil` when the text is not a valid date.
    ///
    /// - Parameter reference: "now" for the recipient — the clock reading of the decision the
    ///   date is parsed for (for a response, when it was received). A two-digit RFC 850 year is
    ///   read against it: the latest year with those last two digits that lies at most 50 years
    ///   after the reference's year, so nothing more than 50 years ahead is assumed (RFC 9110
    ///   §5.6.7; `01-Jan-73` is 2073 in 2026). Required, because a fixed century window goes
    ///   wrong as time passes; IMF-fixdate and asctime do not depend on it.
    public static func parse(_ text: some StringProtocol, reference: Date) -> Date? {
        var text = String(text)
        return text.withUTF8 { bytes in
            var scanner = DateScanner(bytes: bytes)
            return scanner.parse(reference: reference)
        }
    }

    /// The seconds since 1970 an IMF-fixdate can name: from 0001-01-01 to 9999-12-31 23:59:59.
    static let writableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// Formats a date as an IMF-fixdate, the form HTTP senders must use. Years before 1000 are
    /// zero-padded to four digits; a date outside the years 1 to 9999, which an HTTP-date
    /// cannot name, is written as the nearest one inside them.
    public static func format(_ date: Date) -> String {
        let exact = date.timeIntervalSince1970.rounded(.down)
        let seconds = exact.isNaN ? 0 : Int64(min(max(exact, writableSeconds.lowerBound), writableSeconds.upperBound))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilDate(fromDays: days)
        let weekday = Int((days % 7 + 11) % 7)  // 1970-01-01 was a Thursday (index 4).
        // IMF-fixdate's year is exactly four digits: pad years before 1000.
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekdayNames[weekday]), \(twoDigits(day)) \(monthNames[month - 1]) \(paddedYear) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    static func civilYear(of date: Date) -> Int {
        let days = Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
        return civilDate(fromDays: days).year
    }

    /// Days since 1970-01-01 for a civil date.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        CivilDate.days(year: year, month: month, day: day)
    }

    /// The civil date for a count of days since 1970-01-01.
    static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        CivilDate.date(fromDays: days)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
