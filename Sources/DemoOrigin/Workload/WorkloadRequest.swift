// MARK: - One request the workload wants sent

/// One request produced by a ``Workload``: what to send, independent of any HTTP client.
public struct WorkloadRequest: Sendable, Equatable, CustomStringConvertible {
    /// The method, `GET` or `POST`.
    public var method: String
    /// The absolute URL, e.g. `http://127.0.0.1:8080/max-age/60?id=3`.
    public var url: String
    /// Extra header fields to send, e.g. `Accept-Language` for `/vary/lang`.
    public var headers: [(name: String, value: String)]
    /// Which endpoint kind the request exercises.
    public var kind: EndpointKind

    /// Creates a request.
    public init(method: String, url: String, headers: [(name: String, value: String)] = [], kind: EndpointKind) {
        self.method = method
        self.url = url
        self.headers = headers
        self.kind = kind
    }

    /// Equal when method, URL, kind and every header (in order) are equal.
    public static func == (lhs: WorkloadRequest, rhs: WorkloadRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.kind == rhs.kind
            && lhs.headers.count == rhs.headers.count
            && zip(lhs.headers, rhs.headers).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// `METHOD URL` followed by the headers, e.g. `GET http://…/vary/lang?id=2 [Accept-Language: fr]`.
    public var description: String {
        let fields = headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
        return fields.isEmpty ? "\(method) \(url)" : "\(method) \(url) [\(fields)]"
    }
}
