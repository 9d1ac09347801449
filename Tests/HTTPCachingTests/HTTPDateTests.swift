import Foundation
import Testing
@testable import HTTPCaching

/// RFC 9110 §5.6.7: HTTP-date in its three forms.
@Suite("RFC 9110 §5.6.7 HTTP-date")
struct HTTPDateTests {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the RFC's own example.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("§5.6.7 IMF-fixdate is parsed to the second")
    func imfFixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", reference: Fixture.t0) == Self.example)
    }

    @Test("§5.6.7 obsolete RFC 850 form is accepted")
    func rfc850() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", reference: Fixture.t0) == Self.example)
    }

    @Test("§5.6.7 obsolete asctime form with a space-padded day is accepted")
    func asctimeSpacePadded() {
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", reference: Fixture.t0) == Self.example)
    }

    @Test("§5.6.7 asctime form with a two-digit day is accepted")
    func asctimeTwoDigitDay() {
        #expect(HTTPDate.parse("Wed Nov 16 08:49:37 1994", reference: Fixture.t0) == Self.example.addingTimeInterval(10 * 86_400))
    }

    /// `Thu, 01 Jan 2026 00:00:00 GMT`: "now" for the two-digit-year tests.
    static let now2026 = Date(timeIntervalSince1970: 1_767_225_600)

    @Test(
        "§5.6.7 RFC 850 two-digit year is the most recent one at most 50 years after now (2026)",
        arguments: [
            ("Sunday, 01-Jan-73 00:00:00 GMT", 3_250_454_400.0),  // 2073, not 1973
            ("Tuesday, 01-Jan-30 00:00:00 GMT", 1_893_456_000),  // 2030
            ("Saturday, 01-Jan-00 00:00:00 GMT", 946_684_800),  // 2000
            ("Wednesday, 01-Jan-76 00:00:00 GMT", 3_345_062_400),  // 2076: exactly 50 years ahead
            ("Saturday, 01-Jan-77 00:00:00 GMT", 220_924_800),  // 2077 would be 51 years ahead: 1977
        ])
    func rfc850AgainstNow(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text, reference: Self.now2026) == Date(timeIntervalSince1970: seconds))
    }

    @Test(
        "§5.6.7 RFC 850 year more than 50 years after the reference is read as the past century",
        arguments: [
            ("Tuesday, 01-Jan-75 00:00:00 GMT", 3_313_526_400.0),  // 2075: exactly 50 years ahead of 2025
            ("Thursday, 01-Jan-76 00:00:00 GMT", 189_302_400),  // 2076 would be 51 years ahead: 1976
            ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
            ("Saturday, 01-Jan-00 00:00:00 GMT", 946_684_800),
        ])
    func rfc850WithReference(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text, reference: Fixture.t0) == Date(timeIntervalSince1970: seconds))
    }

    @Test("§5.6.7 RFC 850 year is the latest one at most 50 years after the reference (1999 reads 00 as 2000)")
    func rfc850AcrossCenturyBoundary() {
        let reference = Date(timeIntervalSince1970: 946_684_799)  // Fri, 31 Dec 1999 23:59:59 GMT
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT", reference: reference) == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test("§5.6.7 RFC 850 year late in a century is read forward (reference 2080 reads 10 as 2110)")
    func rfc850LateInCentury() {
        let reference = Date(timeIntervalSince1970: 3_471_292_800)  // 2080-01-01
        #expect(HTTPDate.parse("Saturday, 01-Mar-10 00:00:00 GMT", reference: reference) == Date(timeIntervalSince1970: 4_423_075_200))
        #expect(HTTPDate.parse("Monday, 01-Mar-31 00:00:00 GMT", reference: reference) == Date(timeIntervalSince1970: 1_930_089_600))
    }

    @Test("§5.6.7 29 February is valid in a leap year")
    func leapDay() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT", reference: Fixture.t0) == Date(timeIntervalSince1970: 1_709_164_800))
    }

    @Test("§5.6.7 a leap second (60) is accepted and read as 59")
    func leapSecond() {
        let leap = HTTPDate.parse("Tue, 31 Dec 2024 23:59:60 GMT", reference: Fixture.t0)
        #expect(leap == HTTPDate.parse("Tue, 31 Dec 2024 23:59:59 GMT", reference: Fixture.t0))
        #expect(leap != nil)
    }

    @Test("§5.6.7 month names and GMT are read without regard to case")
    func caseInsensitiveNames() {
        #expect(HTTPDate.parse("sun, 06 NOV 1994 08:49:37 gmt", reference: Fixture.t0) == Self.example)
    }

    @Test("§5.6.7 white space around the date is tolerated")
    func surroundingWhitespace() {
        #expect(HTTPDate.parse("  Sun, 06 Nov 1994 08:49:37 GMT \t", reference: Fixture.t0) == Self.example)
    }

    @Test(
        "§5.6.7 invalid dates are rejected",
        arguments: [
            "Fri, 30 Feb 2024 10:00:00 GMT",  // 30 February
            "Thu, 29 Feb 1900 00:00:00 GMT",  // 1900 is not a leap year
            "Wed, 31 Apr 2024 00:00:00 GMT",  // April has 30 days
            "Sun, 06 Nov 1994 24:00:00 GMT",  // hour 24
            "Sun, 06 Nov 1994 08:60:00 GMT",  // minute 60
            "Sun, 06 Nov 1994 08:49:61 GMT",  // second 61
            "Sun, 00 Nov 1994 08:49:37 GMT",  // day 0
            "Sun, 06 Foo 1994 08:49:37 GMT",  // no such month
            "Sun, 06 Nov 1994 08:49:37 UTC",  // only GMT is allowed
            "Sun, 06 Nov 1994 08:49:37",  // zone missing
            "Sun, 06 Nov 94 08:49:37 GMT",  // IMF-fixdate needs four year digits
            "Sun, 06 Nov 1994 08:49:37 GMT garbage",
            "Sun, 06 Nov 0000 08:49:37 GMT",  // year 0
            "Sun Nov  6 08:49:37 94",  // asctime needs four year digits
            "Sun Nov  6 8:49:37 1994",  // one-digit hour
            "garbage",
            "0",
            "-1",
            "",
        ])
    func invalid(text: String) {
        #expect(HTTPDate.parse(text, reference: Fixture.t0) == nil)
    }

    @Test(
        "§5.6.7 senders generate IMF-fixdate",
        arguments: [
            (784_111_777.0, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
            (1_735_732_800, "Wed, 01 Jan 2025 12:00:00 GMT"),
            (1_709_164_800, "Thu, 29 Feb 2024 00:00:00 GMT"),
            (-2_208_988_800, "Mon, 01 Jan 1900 00:00:00 GMT"),
            // Beyond what an HTTP-date names (a damaged capture's times): the nearest it can.
            (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
            (1e23, "Fri, 31 Dec 9999 23:59:59 GMT"),
            (-1e300, "Mon, 01 Jan 0001 00:00:00 GMT"),
        ])
    func format(seconds: Double, text: String) {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test("§5.6.7 formatting drops fractions of a second")
    func formatTruncates() {
        #expect(HTTPDate.format(Self.example.addingTimeInterval(0.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("§5.6.7 IMF-fixdate has four year digits, also before the year 1000")
    func formatPadsYear() {
        let date = Date(timeIntervalSince1970: -30_641_760_000)  // 0999-01-01
        #expect(HTTPDate.format(date) == "Tue, 01 Jan 0999 00:00:00 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(date), reference: Fixture.t0) == date)
    }
}
