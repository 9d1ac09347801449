/// A size typed on a command line: bytes, or a number with `K`, `M` or `G` (powers of 1024),
/// e.g. `--memory-capacity 64M`.
///
/// ```swift
/// try ByteCount(parsing: "64M", option: "--memory-capacity").bytes   // 67108864
/// ```
public struct ByteCount: Sendable, Hashable {
    /// The size in bytes.
    public let bytes: Int

    /// Parses `text`: digits, optionally followed by `K`, `M` or `G` (either case, an optional
    /// `B` or `iB` after it).
    /// - Throws: ``CommandFailure`` (a usage error) naming `option` and the expected form.
    public init(parsing text: String, option: String) throws(CommandFailure) {
        var digits = Substring(text)
        var unit = 1
        for (suffixes, size) in [(["gib", "gb", "g"], 1 << 30), (["mib", "mb", "m"], 1 << 20), (["kib", "kb", "k"], 1 << 10), (["b"], 1)] {
            if let suffix = suffixes.first(where: { text.lowercased().hasSuffix($0) }) {
                digits = digits.dropLast(suffix.count)
                unit = size
                break
            }
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(digits),
            case (let bytes, false) = value.multipliedReportingOverflow(by: unit), bytes > 0
        else {
            throw .usage(command: "proxy", "\(option) must be a positive size such as 1048576, 512K, 64M or 2G, not '\(text)'")
        }
        self.bytes = bytes
    }
}
