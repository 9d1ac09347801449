import CacheEvents
public import Foundation

/// A HAR response.
public struct HARResponse: Sendable, Hashable, Codable {
    /// The status code (0 when the request failed before a response, as DevTools writes it).
    public var status: Int
    /// The reason phrase.
    public var statusText: String
    /// `HTTP/1.1`, `h2`, … (as the tool wrote it).
    public var httpVersion: String
    /// Cookies set.
    public var cookies: [HARCookie]
    /// Header fields received.
    public var headers: [HARNameValue]
    /// The body and its type.
    public var content: HARContent
    /// The `Location` target, or empty.
    public var redirectURL: String
    /// Bytes of the header block (−1 when unknown).
    public var headersSize: Int
    /// Bytes of the body received (0 for responses from the cache and 304s; −1 when unknown).
    public var bodySize: Int
    /// A comment.
    public var comment: String?

    /// Creates a response.
    public init(
        status: Int, statusText: String, httpVersion: String = "HTTP/1.1", cookies: [HARCookie] = [], headers: [HARNameValue],
        content: HARContent, redirectURL: String = "", headersSize: Int = -1, bodySize: Int = -1, comment: String? = nil
    ) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.content = content
        self.redirectURL = redirectURL
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
        case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize, comment
    }

    /// Tolerant: `status` is required; lists default to empty, sizes to −1, `content` to empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeWholeNumber(forKey: .status)
        statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? ""
        cookies = try container.decodeIfPresent([HARCookie].self, forKey: .cookies) ?? []
        headers = try container.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
        content = try container.decodeIfPresent(HARContent.self, forKey: .content) ?? HARContent(size: 0, mimeType: "")
        redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
        headersSize = try container.decodeWholeNumberIfPresent(forKey: .headersSize) ?? -1
        bodySize = try container.decodeWholeNumberIfPresent(forKey: .bodySize) ?? -1
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// `content`: the response body as the tool saved it.
public struct HARContent: Sendable, Hashable, Codable {
    /// The decoded body's length in bytes.
    public var size: Int
    /// Bytes saved by compression, if known.
    public var compression: Int?
    /// The media type (`text/html; charset=utf-8`).
    public var mimeType: String
    /// The body: text, or base64 when ``encoding`` is `base64`; absent when not saved.
    public var text: String?
    /// `base64` when ``text`` is base64-encoded.
    public var encoding: String?
    /// A comment.
    public var comment: String?

    /// Creates content.
    public init(size: Int, compression: Int? = nil, mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil) {
        self.size = size
        self.compression = compression
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case size, compression, mimeType, text, encoding, comment }

    /// Tolerant: missing `size` reads as 0 (or the text's length), missing `mimeType` as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        compression = try container.decodeWholeNumberIfPresent(forKey: .compression)
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
        text = try container.decodeIfPresent(String.self, forKey: .text)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        size = try container.decodeWholeNumberIfPresent(forKey: .size) ?? text?.utf8.count ?? 0
    }

    /// Whether ``text`` is base64 (``encoding`` is `base64`, any case).
    public var isBase64: Bool { encoding?.lowercased() == "base64" }

    /// The body's bytes: ``text`` decoded from base64 when ``encoding`` says so, else its
    /// UTF-8. `nil` when no text was saved or the base64 is invalid (``HARReader`` rejects
    /// files with invalid base64).
    public var body: Data? {
        guard let text else { return nil }
        guard isBase64 else { return Data(text.utf8) }
        // Line breaks (MIME style) and missing padding are tolerated; anything else is invalid.
        var compact = text.filter { !$0.isWhitespace }
        if compact.utf8.count % 4 != 0 { compact += String(repeating: "=", count: 4 - compact.utf8.count % 4) }
        return Data(base64Encoded: compact)
    }
}
