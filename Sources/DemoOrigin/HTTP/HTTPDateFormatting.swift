import Foundation
import HTTPCaching

/// The demo origin's HTTP dates (RFC 9110 §5.6.7) in whole seconds since 1970, on
/// HTTPCaching's ``HTTPDate``: IMF-fixdate when writing; the three accepted forms when reading.
enum HTTPDateFormatting {
    /// IMF-fixdate for `seconds` since 1970, with the year clamped to 0...9999 so it always
    /// has four digits.
    static func format(secondsSince1970 seconds: Int64) -> String {
        let clamped = min(max(seconds, -62_167_219_200), 253_402_300_799)  // 0000-01-01 ... 9999-12-31T23:59:59Z
        return HTTPDate.format(Date(timeIntervalSince1970: Double(clamped)))
    }

    /// Seconds since 1970 for an HTTP date, or `nil` when the value is not one (callers then
    /// ignore the field, as RFC 9110 requires). A two-digit year is read against the current
    /// date.
    static func parse(_ value: String) -> Int64? {
        HTTPDate.parse(value, reference: Date()).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }
}
