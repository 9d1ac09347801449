/// Calendar arithmetic on the proleptic Gregorian calendar in UTC, with Howard Hinnant's
/// `days_from_civil` / `civil_from_days` algorithms: the one implementation behind HTTP-dates,
/// session-log timestamps and the demo origin's `Date` fields. Locale-free and allocation-free.
///
/// ```swift
/// CivilDate.days(year: 1994, month: 11, day: 6)   // 9075
/// CivilDate.date(fromDays: 9075)                   // (1994, 11, 6)
/// ```
public enum CivilDate {
    /// Days since 1970-01-01 for a civil date (negative before it).
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date (year, month 1–12, day 1–31) of a count of days since 1970-01-01.
    public static func date(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
