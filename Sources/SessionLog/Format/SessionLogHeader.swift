import CacheEvents
public import Foundation

/// The first line of a session log: what the file is, which format version, when the session
/// started and whether sensitive header values were redacted.
///
/// ```json
/// {"format":"cachescope-session","version":1,"startedAt":"2025-11-22T09:14:03.512Z","redacted":true,"producer":"cachescope 0.1.0"}
/// ```
///
/// Readers accept any header whose `format` is ``formatName`` and whose `version` is at most
/// ``currentVersion``; unknown fields are ignored, so later versions may add some without a
/// version bump. `version` is a major version: it changes only when older readers would
/// misread the file.
public struct SessionLogHeader: Sendable, Hashable {
    /// The `format` every session log names: `cachescope-session`.
    public static let formatName = "cachescope-session"
    /// The format version this library writes and the newest it reads: 1.
    public static let currentVersion = 1
    /// What ``producer`` says by default.
    public static let defaultProducer = "cachescope 0.1.0"

    /// The format name (``formatName`` for every valid log).
    public var format: String
    /// The major format version.
    public var version: Int
    /// The wall-clock time of the session's start; every event's `t` counts seconds from it.
    /// `nil` when the writer did not say (or wrote something that is not ISO 8601).
    public var startedAt: Date?
    /// Whether `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` values
    /// were replaced by `[redacted]`.
    public var redacted: Bool
    /// The program that wrote the log, e.g. `cachescope 0.1.0`.
    public var producer: String

    /// A header for a log written now by this library.
    public init(startedAt: Date?, redacted: Bool, producer: String = SessionLogHeader.defaultProducer) {
        format = Self.formatName
        version = Self.currentVersion
        self.startedAt = startedAt
        self.redacted = redacted
        self.producer = producer
    }

    /// The header as its JSON line (with the trailing newline), fields in a fixed order.
    var line: [UInt8] {
        var writer = JSONLineWriter(capacity: 256)
        writer.beginObject()
        writer.key("format"); writer.string(format)
        writer.key("version"); writer.int(version)
        if let startedAt {
            writer.key("startedAt"); writer.string(ISO8601Timestamp.string(from: startedAt))
        }
        writer.key("redacted"); writer.bool(redacted)
        writer.key("producer"); writer.string(producer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}

extension SessionLogHeader: Codable {
    private enum CodingKeys: String, CodingKey {
        case format, version, startedAt, redacted, producer
    }

    /// Decodes leniently: only `format` and `version` are required; a missing `redacted`
    /// reads as `false` (nothing is known to be hidden) and a missing `producer` as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        startedAt = try container.decodeIfPresent(String.self, forKey: .startedAt).flatMap(ISO8601Timestamp.date(from:))
        redacted = try container.decodeIfPresent(Bool.self, forKey: .redacted) ?? false
        producer = try container.decodeIfPresent(String.self, forKey: .producer) ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(startedAt.map(ISO8601Timestamp.string(from:)), forKey: .startedAt)
        try container.encode(redacted, forKey: .redacted)
        try container.encode(producer, forKey: .producer)
    }
}
