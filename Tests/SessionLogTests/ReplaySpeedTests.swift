import CacheEvents
import SessionLog
import Testing

@Suite("Replay speed")
struct ReplaySpeedTests {
    @Test("doubling goes 1× … 64× then unlimited and stays; halving goes down to 1/16× and stays")
    func bounds() {
        var speed = ReplaySpeed.realTime
        var seen: [String] = [speed.description]
        for _ in 0..<8 {
            speed = speed.doubled
            seen.append(speed.description)
        }
        #expect(seen == ["1×", "2×", "4×", "8×", "16×", "32×", "64×", "max", "max"])
        #expect(speed.isUnlimited && speed.multiplier == nil)
        seen = []
        for _ in 0..<13 {
            speed = speed.halved
            seen.append(speed.description)
        }
        #expect(seen == ["64×", "32×", "16×", "8×", "4×", "2×", "1×", "1/2×", "1/4×", "1/8×", "1/16×", "1/16×", "1/16×"])
        #expect(speed == .minimum && speed.multiplier == 0.0625)
        #expect(ReplaySpeed.minimum < .realTime && ReplaySpeed.maximumMultiplier < .unlimited)
    }

    @Test("parsing --speed values")
    func parsing() {
        #expect(ReplaySpeed(parsing: "2") == ReplaySpeed(multiplier: 2))
        #expect(ReplaySpeed(parsing: "0.5")?.description == "1/2×")
        #expect(ReplaySpeed(parsing: "1/16")?.description == "1/16×")
        #expect(ReplaySpeed(parsing: "64x")?.description == "64×")
        #expect(ReplaySpeed(parsing: "max") == .unlimited)
        for bad in ["3", "128", "1/32", "0", "-1", "fast", "", "1/0"] {
            #expect(ReplaySpeed(parsing: bad) == nil, "\(bad)")
        }
    }
}
