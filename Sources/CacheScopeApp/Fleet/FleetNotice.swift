public import Dashboard

/// What happened to an instance of a fleet, as ``FleetAttach/onChange(_:)`` reports it: which
/// kind of change (typed, so a dashboard picks its status colour without reading the words) and
/// the sentence for the status line.
///
/// ```swift
/// fleet.onChange { roster, notice in
///     log(notice.text)                                   // "web#2 (pid 42) is gone: …"
///     if notice.kind == .gone { alert() }
/// }
/// ```
public struct FleetNotice: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of change.
    public enum Kind: Sendable, Hashable {
        /// Reached for the first time.
        case attached
        /// Its connection came back to the same process.
        case reconnected
        /// It came back as a new process (another pid): a new life.
        case newLife
        /// Its connection dropped.
        case gone
    }

    /// Which change.
    public var kind: Kind
    /// The sentence for the status line.
    public var text: String

    /// A notice.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// ``text``.
    public var description: String { text }

    /// How the status line shows it: a failure when the instance is gone, else information.
    public var statusKind: StatusMessage.Kind { kind == .gone ? .failure : .info }
}
