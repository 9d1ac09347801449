/// A line and column in a text file, both counted from 1.
///
/// Columns count Unicode scalars, so a column number matches what an editor shows for
/// anything but wide or combined characters.
struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    var line: Int
    /// 1-based column number.
    var column: Int

    var description: String { "line \(line), column \(column)" }
}

/// A parsed JSON value that remembers where it was written.
///
/// Theme errors must name the line of the offending value ("line 7: unknown colour …"), which
/// Foundation's parsers cannot tell us; ``JSONParser`` produces these nodes instead.
struct JSONNode: Sendable {
    /// One `"key": value` member of an object, in file order (duplicates are kept so callers
    /// can report them).
    struct Member: Sendable {
        var key: String
        var keyPosition: SourcePosition
        var value: JSONNode
    }

    /// The value itself.
    enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var value: Value
    var position: SourcePosition

    /// The JSON type name used in error messages ("a string", "an object", …).
    var typeDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    /// The members when this is an object, else `nil`.
    var members: [Member]? {
        if case .object(let members) = value { members } else { nil }
    }

    /// The first member named `key` when this is an object.
    func member(_ key: String) -> Member? {
        members?.first { $0.key == key }
    }
}
