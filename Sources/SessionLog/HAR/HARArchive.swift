import CacheEvents
/// An HTTP Archive (HAR 1.2): what browser DevTools save from the Network panel, and what
/// `cachescope export --har` writes. Decoding is tolerant: fields tools often leave out get
/// defaults, fields named with a leading `_` (tools' own extensions) are ignored — except
/// CacheScope's (`_cacheStatus`, `_cacheReason`, `_ttl`, `_age`) — and unknown fields are
/// skipped. Read files with ``HARReader`` for error messages with line numbers.
public struct HARArchive: Sendable, Hashable, Codable {
    /// The archive's single `log` object.
    public var log: HARLog

    /// Creates an archive.
    public init(log: HARLog) { self.log = log }
}

/// The `log` object: who wrote the archive, its pages and its entries.
public struct HARLog: Sendable, Hashable, Codable {
    /// The format version, `1.2`.
    public var version: String
    /// The program that wrote the archive.
    public var creator: HARCreator
    /// The browser, if a browser wrote it.
    public var browser: HARCreator?
    /// Pages (DevTools groups entries by page); often absent.
    public var pages: [HARPage]?
    /// One entry per request, usually in start order.
    public var entries: [HAREntry]
    /// A comment.
    public var comment: String?

    /// Creates a log.
    public init(version: String = "1.2", creator: HARCreator, browser: HARCreator? = nil, pages: [HARPage]? = nil, entries: [HAREntry], comment: String? = nil) {
        self.version = version
        self.creator = creator
        self.browser = browser
        self.pages = pages
        self.entries = entries
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
        case version, creator, browser, pages, entries, comment
    }

    /// Tolerant: a missing `version` reads as `1.2`, a missing `creator` as unnamed, missing
    /// `entries` as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
        creator = try container.decodeIfPresent(HARCreator.self, forKey: .creator) ?? HARCreator(name: "", version: "")
        browser = try container.decodeIfPresent(HARCreator.self, forKey: .browser)
        pages = try container.decodeIfPresent([HARPage].self, forKey: .pages)
        entries = try container.decodeIfPresent([HAREntry].self, forKey: .entries) ?? []
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// `creator` / `browser`: a program's name and version.
public struct HARCreator: Sendable, Hashable, Codable {
    /// `cachescope`, `WebInspector`, `Firefox`, …
    public var name: String
    /// Its version.
    public var version: String
    /// A comment.
    public var comment: String?

    /// CacheScope itself, as the exporter names it.
    public static let cachescope = HARCreator(name: "cachescope", version: "0.1.0")

    /// Creates a creator.
    public init(name: String, version: String, comment: String? = nil) {
        self.name = name
        self.version = version
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case name, version, comment }

    /// Tolerant: missing fields read as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        version = try container.decodeIfPresent(String.self, forKey: .version) ?? ""
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// A page the entries belong to.
public struct HARPage: Sendable, Hashable, Codable {
    /// When the page load started (ISO 8601).
    public var startedDateTime: String
    /// The page's ID, referenced by entries' `pageref`.
    public var id: String
    /// The page title (often its URL).
    public var title: String
    /// Page load milestones.
    public var pageTimings: HARPageTimings?
    /// A comment.
    public var comment: String?

    /// Creates a page.
    public init(startedDateTime: String, id: String, title: String, pageTimings: HARPageTimings? = nil, comment: String? = nil) {
        self.startedDateTime = startedDateTime
        self.id = id
        self.title = title
        self.pageTimings = pageTimings
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case startedDateTime, id, title, pageTimings, comment }

    /// Tolerant: missing fields read as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        pageTimings = try container.decodeIfPresent(HARPageTimings.self, forKey: .pageTimings)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// `pageTimings`: milliseconds from the page's start (−1 or absent when unknown).
public struct HARPageTimings: Sendable, Hashable, Codable {
    /// `DOMContentLoaded`.
    public var onContentLoad: Double?
    /// `load`.
    public var onLoad: Double?
    /// A comment.
    public var comment: String?

    /// Creates page timings.
    public init(onContentLoad: Double? = nil, onLoad: Double? = nil, comment: String? = nil) {
        self.onContentLoad = onContentLoad
        self.onLoad = onLoad
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case onContentLoad, onLoad, comment }

    /// Each field optional; a number too large to read is named by its field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        onContentLoad = try container.decodeNumberIfPresent(forKey: .onContentLoad)
        onLoad = try container.decodeNumberIfPresent(forKey: .onLoad)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}
