/// The greeting a server sends as the first line of every connection: which protocol it
/// speaks and which process is behind the socket.
///
/// On the wire: `{"type":"hello","format":"cachescope-attach","version":1,"process":"myapp","pid":4242}`.
/// A dashboard refuses a `format` other than ``formatName`` and a `version` other than
/// ``currentVersion`` (see ``AttachError/versionMismatch(path:peerVersion:supportedVersion:)``).
public struct AttachHello: Sendable, Hashable, Codable {
    /// The `format` every attach server announces: `cachescope-attach`.
    public static let formatName = "cachescope-attach"
    /// The protocol version this build speaks: `1`.
    public static let currentVersion = 1

    /// The protocol's name (``formatName``).
    public var format: String
    /// The protocol version.
    public var version: Int
    /// The publishing process's name, as it was given to ``AttachServer/start(events:snapshot:commands:path:processName:bufferSize:)``.
    public var process: String
    /// The publishing process's ID.
    public var pid: Int32

    /// Creates a greeting; `format` and `version` default to this build's.
    public init(process: String, pid: Int32, format: String = AttachHello.formatName, version: Int = AttachHello.currentVersion) {
        self.format = format
        self.version = version
        self.process = process
        self.pid = pid
    }
}
