import Foundation

/// A byte scanner over one HTTP-date; the machinery behind ``HTTPDate/parse(_:reference:)``.
struct DateScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parse(reference: Date) -> Date? {
        skipSpaces()
        guard let weekdayLength = skipLetters(), weekdayLength >= 3 else { return nil }
        if consume(UInt8(ascii: ",")) {
            skipSpaces()
            // IMF-fixdate ("06 Nov 1994") or RFC 850 ("06-Nov-94").
            guard let day = digits(min: 1, max: 2) else { return nil }
            if consume(UInt8(ascii: "-")) {
                guard let month = monthNumber(), consume(UInt8(ascii: "-")),
                    let shortYear = digits(min: 2, max: 4)
                else { return nil }
                let year = shortYear >= 100 ? shortYear : fullYear(twoDigit: shortYear, reference: reference)
                return finishTimeAndZone(year: year, month: month, day: day)
            }
            guard skipSpaces() > 0, let month = monthNumber(), skipSpaces() > 0,
                let year = digits(min: 4, max: 4)
            else { return nil }
            return finishTimeAndZone(year: year, month: month, day: day)
        }
        // asctime: "Sun Nov  6 08:49:37 1994"
        guard skipSpaces() > 0, let month = monthNumber(), skipSpaces() > 0,
            let day = digits(min: 1, max: 2), skipSpaces() > 0,
            let seconds = timeOfDay(), skipSpaces() > 0,
            let year = digits(min: 4, max: 4)
        else { return nil }
        skipSpaces()
        guard index == bytes.count else { return nil }
        return makeDate(year: year, month: month, day: day, secondsOfDay: seconds)
    }

    // MARK: Pieces

    private mutating func finishTimeAndZone(year: Int, month: Int, day: Int) -> Date? {
        guard skipSpaces() > 0, let seconds = timeOfDay(), skipSpaces() > 0 else { return nil }
        guard index + 3 <= bytes.count,
            bytes[index] | 0x20 == UInt8(ascii: "g"),
            bytes[index + 1] | 0x20 == UInt8(ascii: "m"),
            bytes[index + 2] | 0x20 == UInt8(ascii: "t")
        else { return nil }
        index += 3
        skipSpaces()
        guard index == bytes.count else { return nil }
        return makeDate(year: year, month: month, day: day, secondsOfDay: seconds)
    }

    private func makeDate(year: Int, month: Int, day: Int, secondsOfDay: Int) -> Date? {
        guard year >= 1, year <= 9999, day >= 1, day <= HTTPDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        let days = HTTPDate.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(secondsOfDay)))
    }

    /// RFC 9110 §5.6.7: a year more than 50 years ahead is the most recent past one with the
    /// same digits. The result lies in `reference - 49 ... reference + 50`, whichever century
    /// the reference is in (a 1999 reference reads `00` as 2000, not 1900).
    private func fullYear(twoDigit: Int, reference date: Date) -> Int {
        let reference = HTTPDate.civilYear(of: date)
        var year = reference / 100 * 100 + twoDigit
        if year > reference + 50 { year -= 100 }
        if year <= reference - 50 { year += 100 }
        return year
    }

    /// `HH:MM:SS` as seconds of the day; a leap second (60) is accepted as RFC 9110 allows.
    private mutating func timeOfDay() -> Int? {
        guard let hour = digits(min: 2, max: 2), hour < 24, consume(UInt8(ascii: ":")),
            let minute = digits(min: 2, max: 2), minute < 60, consume(UInt8(ascii: ":")),
            let second = digits(min: 2, max: 2), second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + min(second, 59)
    }

    private mutating func monthNumber() -> Int? {
        guard index + 3 <= bytes.count else { return nil }
        let a = bytes[index] | 0x20, b = bytes[index + 1] | 0x20, c = bytes[index + 2] | 0x20
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        guard let month = Self.monthKeys.firstIndex(of: key) else { return nil }
        index += 3
        return month + 1
    }

    private static let monthKeys: [UInt32] = HTTPDate.monthNames.map { name in
        let u = Array(name.lowercased().utf8)
        return UInt32(u[0]) << 16 | UInt32(u[1]) << 8 | UInt32(u[2])
    }

    private mutating func digits(min: Int, max: Int) -> Int? {
        var value = 0
        var count = 0
        while index < bytes.count, count < max, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            count += 1
        }
        return count >= min ? value : nil
    }

    @discardableResult
    private mutating func skipSpaces() -> Int {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index - start
    }

    private mutating func skipLetters() -> Int? {
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= 0x61, (bytes[index] | 0x20) <= 0x7A { index += 1 }
        return index > start ? index - start : nil
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
