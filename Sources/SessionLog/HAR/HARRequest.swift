import CacheEvents
/// A HAR request.
public struct HARRequest: Sendable, Hashable, Codable {
    /// `GET`, `POST`, …
    public var method: String
    /// The absolute URL.
    public var url: String
    /// `HTTP/1.1`, `h2`, `http/2.0`, … (as the tool wrote it).
    public var httpVersion: String
    /// Cookies sent.
    public var cookies: [HARCookie]
    /// Header fields sent.
    public var headers: [HARNameValue]
    /// The URL's query parameters.
    public var queryString: [HARNameValue]
    /// The request body, if any.
    public var postData: HARPostData?
    /// Bytes of the header block (−1 when unknown).
    public var headersSize: Int
    /// Bytes of the body (−1 when unknown).
    public var bodySize: Int
    /// A comment.
    public var comment: String?

    /// Creates a request.
    public init(
        method: String, url: String, httpVersion: String = "HTTP/1.1", cookies: [HARCookie] = [], headers: [HARNameValue],
        queryString: [HARNameValue] = [], postData: HARPostData? = nil, headersSize: Int = -1, bodySize: Int = -1, comment: String? = nil
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.queryString = queryString
        self.postData = postData
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
        case method, url, httpVersion, cookies, headers, queryString, postData, headersSize, bodySize, comment
    }

    /// Tolerant: `method` and `url` are required; lists default to empty, sizes to −1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        url = try container.decode(String.self, forKey: .url)
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? ""
        cookies = try container.decodeIfPresent([HARCookie].self, forKey: .cookies) ?? []
        headers = try container.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
        queryString = try container.decodeIfPresent([HARNameValue].self, forKey: .queryString) ?? []
        postData = try container.decodeIfPresent(HARPostData.self, forKey: .postData)
        headersSize = try container.decodeWholeNumberIfPresent(forKey: .headersSize) ?? -1
        bodySize = try container.decodeWholeNumberIfPresent(forKey: .bodySize) ?? -1
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// A name and a value: a header field or a query parameter.
public struct HARNameValue: Sendable, Hashable, Codable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// A comment.
    public var comment: String?

    /// Creates a pair.
    public init(name: String, value: String, comment: String? = nil) {
        self.name = name
        self.value = value
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case name, value, comment }

    /// Tolerant: a missing `value` reads as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// A cookie as DevTools lists it.
public struct HARCookie: Sendable, Hashable, Codable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// Its path.
    public var path: String?
    /// Its domain.
    public var domain: String?
    /// When it expires (ISO 8601).
    public var expires: String?
    /// `HttpOnly`.
    public var httpOnly: Bool?
    /// `Secure`.
    public var secure: Bool?
    /// `SameSite`, when the tool records it.
    public var sameSite: String?
    /// A comment.
    public var comment: String?

    /// Creates a cookie.
    public init(name: String, value: String, path: String? = nil, domain: String? = nil, expires: String? = nil, httpOnly: Bool? = nil, secure: Bool? = nil, sameSite: String? = nil, comment: String? = nil) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.expires = expires
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case name, value, path, domain, expires, httpOnly, secure, sameSite, comment }

    /// Tolerant: a missing `value` reads as empty; `expires` may be `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        path = try container.decodeIfPresent(String.self, forKey: .path)
        domain = try container.decodeIfPresent(String.self, forKey: .domain)
        expires = try container.decodeIfPresent(String.self, forKey: .expires)
        httpOnly = try container.decodeIfPresent(Bool.self, forKey: .httpOnly)
        secure = try container.decodeIfPresent(Bool.self, forKey: .secure)
        sameSite = try container.decodeIfPresent(String.self, forKey: .sameSite)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// A request body.
public struct HARPostData: Sendable, Hashable, Codable {
    /// Its media type.
    public var mimeType: String
    /// Form parameters, when the tool split them out.
    public var params: [HARNameValue]?
    /// The body text.
    public var text: String?
    /// A comment.
    public var comment: String?

    /// Creates a body.
    public init(mimeType: String, params: [HARNameValue]? = nil, text: String? = nil, comment: String? = nil) {
        self.mimeType = mimeType
        self.params = params
        self.text = text
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case mimeType, params, text, comment }

    /// Tolerant: a missing `mimeType` reads as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
        params = try container.decodeIfPresent([HARNameValue].self, forKey: .params)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}
