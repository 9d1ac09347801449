/// A message on the status line: a command's result, an error, a hint.
public struct StatusMessage: Sendable, Hashable {
    /// How the message should look.
    public enum Kind: Sendable, Hashable {
        /// A neutral note or hint.
        case info
        /// A command did what was asked.
        case success
        /// Something failed or cannot be done.
        case failure
    }

    /// The message (untrusted parts are escaped when drawn).
    public var text: String
    /// Its kind.
    public var kind: Kind

    /// Creates a message.
    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}
