import CacheEvents
import SessionLog
import Foundation
import Testing

@Suite("ISO 8601 timestamps")
struct ISO8601TimestampTests {
    @Test("written in UTC with milliseconds")
    func writing() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1_763_802_843.512)) == "2025-11-22T09:14:03.512Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
    }

    @Test("a date outside the years 0 to 9999 is written as the nearest inside them, and canWrite says which can be written")
    func outOfRange() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1e15)) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -1e300)) == "0000-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.canWrite(Date(timeIntervalSince1970: 253_402_300_799)))
        #expect(!ISO8601Timestamp.canWrite(Date(timeIntervalSince1970: 253_402_300_800)))
        #expect(!ISO8601Timestamp.canWrite(Date(timeIntervalSince1970: 1e12)))
    }

    @Test("read with zones, offsets and optional fractions")
    func reading() {
        let reference = Date(timeIntervalSince1970: 1_763_802_843)
        #expect(ISO8601Timestamp.date(from: "2025-11-22T09:14:03Z") == reference)
        #expect(ISO8601Timestamp.date(from: "2025-11-22T10:14:03+01:00") == reference)
        #expect(ISO8601Timestamp.date(from: "2025-11-22T04:14:03-0500") == reference)
        let fractional = ISO8601Timestamp.date(from: "2025-11-22T09:14:03.512345Z")!
        #expect(abs(fractional.timeIntervalSince(reference) - 0.512345) < 1e-6)
        for bad in ["2025-11-22", "2025-11-22T09:14:03", "2025-13-01T00:00:00Z", "yesterday", "2025-11-22T09:14:03.Z", "2025-11-22T09:14:03Zjunk"] {
            #expect(ISO8601Timestamp.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test("round trip at millisecond precision")
    func roundTrip() {
        for milliseconds in stride(from: -86_400_000, to: 4_000_000_000_000, by: 97_654_321_017) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(ISO8601Timestamp.date(from: ISO8601Timestamp.string(from: date)) == date)
        }
    }
}
