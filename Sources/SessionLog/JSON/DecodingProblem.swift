import CacheEvents
/// Says in a few words what a `DecodingError` means and where:
/// `missing field "status"`, `field "headers[0].value" should be a string`.
enum DecodingProblem {
    /// The words for `error`, with its coding path.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context.codingPath + [key]))\""
        case .typeMismatch(let type, let context):
            return "field \"\(path(context.codingPath))\" should be \(expectation(type))"
        case .valueNotFound(let type, let context):
            return "field \"\(path(context.codingPath))\" is null but should be \(expectation(type))"
        case .dataCorrupted(let context):
            let message = context.debugDescription.hasPrefix("Cannot initialize")
                ? "has a value this version does not know" : context.debugDescription
            return context.codingPath.isEmpty ? message : "field \"\(path(context.codingPath))\" \(message)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// `log.entries[3].request.url`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func expectation(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is UInt64.Type, is Double.Type, is Int64.Type, is UInt.Type: return "a number"
        case is [Any].Type: return "an array"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("Keyed") { return "an object" }
            return "a \(name)"
        }
    }
}
