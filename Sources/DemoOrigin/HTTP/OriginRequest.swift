import Foundation

// MARK: - The request as the endpoints see it

/// One HTTP request, reduced to what the endpoints need and free of NIO types so the routing and
/// response code stays plain Swift.
struct OriginRequest: Sendable {
    /// The method token, upper case as sent (`GET`, `POST`, …).
    var method: String
    /// The request target exactly as sent, e.g. `/max-age/60?id=3`. This is the counting key.
    var target: String
    /// The header fields in the order received.
    var headers: [(name: String, value: String)]
    /// What arrived of the body.
    var body = ReceivedBody()

    /// The path part of the target (no query). An absolute-form target
    /// (`http://host/path?q`) is reduced to its path.
    var path: Substring {
        var rest = Substring(target)
        if let schemeEnd = rest.range(of: "://") {
            rest = rest[schemeEnd.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        return rest.firstIndex(of: "?").map { rest[..<$0] } ?? rest
    }

    /// Whether the method is safe and so may be answered from a representation (GET or HEAD).
    var isGetOrHead: Bool { method == "GET" || method == "HEAD" }

    /// All values of the field `name` (case-insensitive) joined with ", ", as RFC 9110 §5.3
    /// allows for list-valued fields, or `nil` when absent.
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// How many times the field `name` occurs (case-insensitive).
    func headerCount(_ name: String) -> Int {
        headers.count { $0.name.lowercased() == name.lowercased() }
    }
}
