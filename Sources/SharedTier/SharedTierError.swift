/// Why the shared tier could not be set up. Once it runs, the tier never throws: failures
/// make it miss and publish one warning (see docs/shared-tier.md).
public enum SharedTierError: Error, CustomStringConvertible, Equatable {
    /// The `--shared-tier` URL cannot be used.
    case invalidURL(String, reason: String)
    /// A setting is out of range.
    case invalidConfiguration(String)
    /// No connection could be made at start.
    case unreachable(String, reason: String)
    /// The database holds a newer schema than this program understands.
    case schemaTooNew(found: Int, supported: Int)
    /// Creating or migrating the schema failed.
    case migrationFailed(String, reason: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid shared tier URL \"\(url)\": \(reason)"
        case .invalidConfiguration(let problem):
            return "invalid shared tier configuration: \(problem)"
        case .unreachable(let url, let reason):
            return "cannot reach the shared tier at \(url): \(reason); check that PostgreSQL runs there and accepts this user"
        case .schemaTooNew(let found, let supported):
            return "the shared tier's schema is version \(found), newer than this program's \(supported); upgrade cachescope or use another database"
        case .migrationFailed(let url, let reason):
            return "cannot create the shared tier's tables at \(url): \(reason)"
        }
    }
}
