import TrafficFilter

/// A size typed on a command line: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1024, the suffixes of ``UnitTable/sizes`` that filters use too), e.g. `--memory-capacity 64M`.
///
/// ```swift
/// try ByteCount(parsing: "64M", option: "--memory-capacity").bytes   // 67108864
/// ```
public struct ByteCount: Sendable, Hashable {
    /// The size in bytes.
    public let bytes: Int

    /// Parses `text`: digits, optionally followed by a suffix of ``UnitTable/sizes`` (`K`, `M`,
    /// `G` or `T` in either case, an optional `B` or `iB` after it; or `B`).
    /// - Throws: ``CommandFailure`` (a usage error) naming `option` and the expected form.
    public init(parsing text: String, option: String) throws(CommandFailure) {
        let suffixStart = text.lastIndex { $0.isASCII && $0.isNumber }.map { text.index(after: $0) } ?? text.startIndex
        let digits = text[..<suffixStart]
        let suffix = text[suffixStart...]
        let unit = suffix.isEmpty ? 1 : UnitTable.sizes.factor(of: suffix).map { Int($0) }
        guard let unit, !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .usage(command: "proxy", "\(option) must be a positive size such as 1048576, 512K, 64M or 2G, not '\(text)'")
        }
        // Digits and a known unit: a value past what a size can hold is too large, not malformed.
        guard let value = Int(digits), case (let bytes, false) = value.multipliedReportingOverflow(by: unit) else {
            throw .usage(command: "proxy", "\(option) \(text) is too large: a size holds at most 9223372036854775807 bytes (just under 8388608T)")
        }
        guard bytes > 0 else {
            throw .usage(command: "proxy", "\(option) must be a positive size such as 1048576, 512K, 64M or 2G, not '\(text)'")
        }
        self.bytes = bytes
    }
}
