import Foundation
import Testing
@testable import HTTPCaching

/// RFC 9111 §4.2.3: calculating the current age of a stored response.
@Suite("RFC 9111 §4.2.3 age calculation")
struct AgeTests {
    let rules = Fixture.privateCache

    func age(_ stored: StoredResponse, at now: Double) -> Double {
        rules.currentAge(of: stored, now: Fixture.at(now))
    }

    @Test("§4.2.3 a response received at once ages by its resident time")
    func residentTime() {
        #expect(age(Fixture.stored("Cache-Control: max-age=60"), at: 30) == 30)
        #expect(age(Fixture.stored("Cache-Control: max-age=60"), at: 0) == 0)
    }

    @Test("§4.2.3 the Age header adds to the current age")
    func ageHeader() {
        #expect(age(Fixture.stored("Age: 100"), at: 30) == 130)
    }

    @Test("§4.2.3 the response delay is added to the Age value (corrected_age_value)")
    func responseDelay() {
        let stored = Fixture.stored("Age: 10", requested: 0, received: 5, date: 5)
        #expect(age(stored, at: 5) == 15)
    }

    @Test("§4.2.3 the response delay counts even without an Age header")
    func responseDelayWithoutAge() {
        let stored = Fixture.stored(requested: 0, received: 4, date: 4)
        #expect(age(stored, at: 10) == 10)
    }

    @Test("§4.2.3 apparent age is receipt time minus Date")
    func apparentAge() {
        let stored = Fixture.stored(requested: 50, received: 50, date: 0)
        #expect(age(stored, at: 50) == 50)
        #expect(age(stored, at: 60) == 60)
    }

    @Test("§4.2.3 the larger of apparent age and corrected Age value is the initial age")
    func largerWins() {
        #expect(age(Fixture.stored("Age: 10", requested: 50, received: 50, date: 0), at: 50) == 50)
        #expect(age(Fixture.stored("Age: 90", requested: 50, received: 50, date: 0), at: 50) == 90)
    }

    @Test("§4.2.3 clock skew: a Date in the future gives apparent age zero, not a negative age")
    func clockSkew() {
        let stored = Fixture.stored(requested: 0, received: 0, date: 3600)
        #expect(age(stored, at: 0) == 0)
        #expect(age(stored, at: 10) == 10)
    }

    @Test("§4.2.3 without Date the receipt time stands in: apparent age zero")
    func noDate() {
        #expect(age(Fixture.stored(requested: 20, received: 20, date: nil), at: 25) == 5)
    }

    @Test("§5.1 an invalid Age header is ignored in the age", arguments: ["abc", "-5", "1e3"])
    func invalidAge(value: String) {
        #expect(age(Fixture.stored("Age: \(value)"), at: 30) == 30)
    }

    @Test("§5.1 a list-valued Age counts with its first member")
    func listAge() {
        #expect(age(Fixture.stored("Age: 100, 5"), at: 30) == 130)
    }

    @Test("§4.2.3 resident time is never negative when the clock goes back")
    func clockBackwards() {
        #expect(age(Fixture.stored("Age: 7", requested: 100, received: 100, date: 100), at: 50) == 7)
    }

    @Test("§4.2.3 a huge Age saturates at 2^31 and still adds up")
    func hugeAge() {
        #expect(age(Fixture.stored("Age: 99999999999999"), at: 1) == 2_147_483_649)
    }

    @Test("§4.2.3 an Age beyond the lifetime makes a new response stale on arrival")
    func ageBeyondLifetime() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Age: 120")
        #expect(!rules.freshness(of: stored, now: Fixture.at(0)).isFresh)
        #expect(Fixture.decide([stored], at: 0).summary == "miss: expired 60s ago, no validator")
    }

    @Test("§4.2 freshness combines lifetime and current age")
    func freshnessCombines() {
        let stored = Fixture.stored("Cache-Control: max-age=60", "Age: 5", requested: 0, received: 2, date: 2)
        let freshness = rules.freshness(of: stored, now: Fixture.at(12))
        #expect(freshness == Freshness(lifetime: 60, age: 17, source: .maxAge(60)))
        #expect(freshness.timeToLive == 43)
    }
}
