/// Why a what-if replay (`cachescope replay FILE --what-if KEY=VALUE…`) cannot run, in words
/// that say what to change.
public enum WhatIfError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An argument that is not `KEY=VALUE`.
    case notAnAssignment(String)
    /// A key the what-if does not know.
    case unknownKey(String)
    /// A known key with a value it cannot take; `expected` describes the accepted values.
    case badValue(key: String, value: String, expected: String)
    /// The same key given twice.
    case repeatedKey(String)
    /// The session log lacks what a simulation needs; `missing` says what.
    case logTooOld(file: String, missing: String)

    public var description: String {
        switch self {
        case .notAnAssignment(let text):
            return "--what-if takes KEY=VALUE, not \"\(text)\"; keys: \(WhatIfChanges.keyList)"
        case .unknownKey(let key):
            return "--what-if: unknown key \"\(key)\"; keys: \(WhatIfChanges.keyList)"
        case .badValue(let key, let value, let expected):
            return "--what-if \(key)=\(value): \(key) must be \(expected)"
        case .repeatedKey(let key):
            return "--what-if: \(key) is given twice; give each key once"
        case .logTooOld(let file, let missing):
            return "\(file) is too old to simulate: \(missing). Logs recorded by this version of CacheScope "
                + "have it; record the session again (demo or proxy --record) to run a what-if on it"
        }
    }
}
