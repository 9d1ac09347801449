import CacheEvents
/// Converts the text of JSON numbers (already validated by ``JSONScanner``) into Swift numbers
/// without creating strings, correctly rounded.
///
/// Doubles take one of two exact fast paths — Clinger's (mantissa ≤ 2⁵³, power of ten ≤ 22)
/// and an exact 128-bit division for the up-to-19-digit mantissas that Swift's shortest
/// round-trip form gives arbitrary times (`12.345678901234567`) — and fall back to the
/// standard library's parser for anything else.
enum JSONNumberParsing {
    /// An integer without fraction or exponent that fits `Int`; `nil` otherwise.
    static func int(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        guard let magnitude = digits(text, from: negative ? 1 : 0) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// A non-negative integer without fraction or exponent that fits `UInt64`; `nil` otherwise.
    static func unsigned(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        digits(text, from: 0)
    }

    private static func digits(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
        guard start < text.count else { return nil }
        var value: UInt64 = 0
        for index in start..<text.count {
            let digit = text[index] &- 0x30
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    // MARK: Doubles

    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The nearest `Double` to a JSON number's text.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = !text.isEmpty && text[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var sawDigit = false
        // Integer part, then fraction: digits beyond 19 significant ones go to the slow path.
        while index < text.count, text[index] &- 0x30 < 10 {
            accumulate(text[index], into: &mantissa, digits: &significantDigits)
            sawDigit = true
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, text[index] &- 0x30 < 10 {
                accumulate(text[index], into: &mantissa, digits: &significantDigits)
                exponent -= 1
                index += 1
            }
        }
        guard sawDigit else { return nil }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentSign = 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                if text[index] == UInt8(ascii: "-") { exponentSign = -1 }
                index += 1
            }
            var written = 0
            while index < text.count, text[index] &- 0x30 < 10 {
                if written < 100_000 { written = written * 10 + Int(text[index] &- 0x30) }
                index += 1
            }
            exponent += exponentSign * written
        }
        guard index == text.count else { return nil }
        if significantDigits <= 19 {
            if mantissa == 0 { return negative ? -0.0 : 0.0 }
            if let value = exact(mantissa: mantissa, exponent: exponent) { return negative ? -value : value }
        }
        return Double(String(decoding: text, as: UTF8.self))
    }

    private static func accumulate(_ byte: UInt8, into mantissa: inout UInt64, digits: inout Int) {
        if mantissa == 0, byte == UInt8(ascii: "0") { return }  // leading zeros are not significant
        digits += 1
        if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30) }
    }

    /// `mantissa × 10^exponent` when it can be computed exactly and rounded once.
    private static func exact(mantissa: UInt64, exponent: Int) -> Double? {
        if mantissa <= 1 << 53, (-22...22).contains(exponent) {
            let value = Double(mantissa)
            return exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
        }
        if (-21 ... -1).contains(exponent) { return dividedByPowerOfTen(mantissa, -exponent) }
        return nil
    }

    /// `mantissa ÷ 10^k`, correctly rounded (half to even), by exact 128-bit integer division.
    /// With k ≤ 21 the divisor has at most 70 bits, so the quotient keeps at least 58 bits.
    private static func dividedByPowerOfTen(_ mantissa: UInt64, _ k: Int) -> Double {
        var divisor: UInt128 = 1
        for _ in 0..<k { divisor *= 10 }
        let shift = mantissa.leadingZeroBitCount + 64  // m << shift fills all 128 bits
        let numerator = UInt128(mantissa) << shift
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: divisor)
        let topBit = 127 - quotient.leadingZeroBitCount
        let dropped = topBit + 1 - 53
        var significand = UInt64(truncatingIfNeeded: quotient >> dropped)
        let rest = quotient & ((UInt128(1) << dropped) - 1)
        let half = UInt128(1) << (dropped - 1)
        if rest > half || (rest == half && (remainder != 0 || significand & 1 == 1)) {
            significand += 1
        }
        return Double(sign: .plus, exponent: dropped - shift, significand: Double(significand))
    }
}
