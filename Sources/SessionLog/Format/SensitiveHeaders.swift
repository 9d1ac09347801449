public import HTTPTypes
public import CacheEvents
/// The header fields whose values session logs hide: `Authorization`, `Proxy-Authorization`,
/// `Cookie` and `Set-Cookie` (names compared case-insensitively). Their values are replaced
/// by ``redactedValue`` unless a recorder is configured not to redact.
public enum SensitiveHeaders {
    /// What a redacted value reads: `[redacted]`.
    public static let redactedValue = "[redacted]"

    /// The field names redacted, in canonical case.
    public static let names = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// Whether a field's value is redacted (case-insensitive).
    public static func isSensitive(_ name: String) -> Bool {
        // Lengths differ for all four names, so the length picks the only candidate.
        let candidate: String
        switch name.utf8.count {
        case 13: candidate = "authorization"
        case 19: candidate = "proxy-authorization"
        case 6: candidate = "cookie"
        case 10: candidate = "set-cookie"
        default: return false
        }
        return zip(name.utf8, candidate.utf8).allSatisfy { lhs, rhs in
            lhs == rhs || (lhs >= 0x41 && lhs <= 0x5A && lhs | 0x20 == rhs)
        }
    }

    /// The fields with sensitive values replaced.
    public static func redacting(_ fields: HTTPFields) -> HTTPFields {
        guard fields.contains(where: { isSensitive($0.name.rawName) }) else { return fields }
        return HTTPFields(fields.map { isSensitive($0.name.rawName) ? HTTPField(name: $0.name, value: redactedValue) : $0 })
    }
}

extension CacheEvent {
    /// The event with the values of sensitive header fields (``SensitiveHeaders``) replaced by
    /// `[redacted]` in every header list it carries (`requestStarted`, `served` and
    /// `notModified`).
    public func redactingSensitiveHeaders() -> CacheEvent {
        var copy = self
        switch kind {
        case .requestStarted(var started):
            started.headers = SensitiveHeaders.redacting(started.headers)
            copy.kind = .requestStarted(started)
        case .served(var served):
            served.headers = SensitiveHeaders.redacting(served.headers)
            copy.kind = .served(served)
        case .notModified(var notModified):
            notModified.headers = notModified.headers.map(SensitiveHeaders.redacting)
            copy.kind = .notModified(notModified)
        default:
            break
        }
        return copy
    }
}
