import CacheEvents
/// How fast a replay runs: a power of two from 1/16× to 64× real time, or as fast as
/// possible. `<` and `>` in the dashboard halve and double it.
///
/// ```swift
/// var speed = ReplaySpeed.realTime      // 1×
/// speed = speed.doubled                 // 2×
/// ReplaySpeed.maximumMultiplier.doubled // .unlimited ("max")
/// ReplaySpeed(parsing: "1/4")           // 1/4×
/// ```
public struct ReplaySpeed: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// log₂ of the multiplier (−4…6), or 7 for ``unlimited``.
    private let step: Int

    private static let slowestStep = -4
    private static let fastestStep = 6
    private static let unlimitedStep = 7

    private init(step: Int) { self.step = step }

    /// 1× real time.
    public static let realTime = ReplaySpeed(step: 0)
    /// The slowest speed: 1/16×.
    public static let minimum = ReplaySpeed(step: slowestStep)
    /// The fastest timed speed: 64×.
    public static let maximumMultiplier = ReplaySpeed(step: fastestStep)
    /// As fast as possible: events are applied without regard to their times.
    public static let unlimited = ReplaySpeed(step: unlimitedStep)

    /// A speed of `multiplier`× real time; `nil` unless it is a power of two from 1/16 to 64.
    public init?(multiplier: Double) {
        guard multiplier > 0, multiplier.isFinite else { return nil }
        let exponent = Int(multiplier.exponent)
        guard multiplier.significand == 1, (Self.slowestStep...Self.fastestStep).contains(exponent) else { return nil }
        step = exponent
    }

    /// Parses `2`, `0.5`, `1/4`, `64x`, `max` (as `--speed` accepts); `nil` for anything else.
    public init?(parsing text: String) {
        var text = text.lowercased()
        if text == "max" || text == "unlimited" {
            self = .unlimited
            return
        }
        if text.hasSuffix("x") || text.hasSuffix("×") { text.removeLast() }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 else { return nil }
            value = numerator / denominator
        default: value = nil
        }
        guard let value else { return nil }
        self.init(multiplier: value)
    }

    /// The factor session time advances by per wall-clock second, or `nil` when unlimited.
    public var multiplier: Double? {
        step == Self.unlimitedStep ? nil : Double(sign: .plus, exponent: step, significand: 1)
    }

    /// Whether this is as fast as possible.
    public var isUnlimited: Bool { step == Self.unlimitedStep }

    /// Twice as fast; 64× becomes unlimited, and unlimited stays.
    public var doubled: ReplaySpeed { ReplaySpeed(step: min(step + 1, Self.unlimitedStep)) }

    /// Half as fast; unlimited becomes 64×, and 1/16× stays.
    public var halved: ReplaySpeed { ReplaySpeed(step: max(step - 1, Self.slowestStep)) }

    /// `1/16×`, `1×`, `64×`, `max`.
    public var description: String {
        if step == Self.unlimitedStep { return "max" }
        return step >= 0 ? "\(1 << step)×" : "1/\(1 << -step)×"
    }

    public static func < (lhs: ReplaySpeed, rhs: ReplaySpeed) -> Bool { lhs.step < rhs.step }
}
