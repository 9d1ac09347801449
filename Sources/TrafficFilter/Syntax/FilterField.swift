import CacheStore
import HTTPCaching

/// The fields a filter names, with the operators and values each takes. One table, which the
/// parser, Tab completion, the dashboard's help and `docs/filter.md` follow.
public enum FilterField: String, CaseIterable, Sendable, Hashable {
    /// `outcome:miss`: the request's outcome word.
    case outcome
    /// `reason:"no-store"`: why it had its outcome (text).
    case reason
    /// `status>=500`: the status code.
    case status
    /// `method:POST`: the request method (entries: their key's).
    case method
    /// `url~REGEX`, `url:text`: the URL (entries: their key's URL).
    case url
    /// `host:example.com`: the URL's host.
    case host
    /// `ttl<30s`: freshness left, in seconds (negative once stale).
    case ttl
    /// `age>5m`: the response's age.
    case age
    /// `size>1MB`: body bytes served (requests) or stored size (entries).
    case size
    /// `tier:disk`: where an entry lives.
    case tier
    /// `tag:product-42`: one of an entry's tags (surrogate keys), exactly.
    case tag
    /// `h:cache-control~no-cache`: a header field of the request or the response.
    case header = "h"
    /// `bg`: the cache's own background refreshes.
    case background = "bg"
    /// `instance:web`: the attached instance a request or entry belongs to (several attached).
    case instance

    /// What kind of value the field compares.
    enum Kind {
        case outcome, tier, tag, text, integer, duration, bytes, header, flag
    }

    var kind: Kind {
        switch self {
        case .outcome: .outcome
        case .tier: .tier
        case .tag: .tag
        case .reason, .method, .url, .host, .instance: .text
        case .status: .integer
        case .ttl, .age: .duration
        case .size: .bytes
        case .header: .header
        case .background: .flag
        }
    }

    /// How the field is written before its operator: `outcome`, `h:NAME`, `bg`.
    public var syntax: String {
        switch self {
        case .header: "h:NAME"
        default: rawValue
        }
    }

    /// The operators it takes, as the error messages list them.
    var operators: String {
        switch kind {
        case .outcome, .tier, .tag: ": or ="
        case .text, .header: ":, = or ~"
        case .integer, .duration, .bytes: ":, =, <, <=, > or >="
        case .flag: "none"
        }
    }

    /// One line for the help and completion: what it matches and an example.
    public var help: String {
        switch self {
        case .outcome: "outcome:miss — " + CacheOutcome.allCases.map(\.rawValue).joined(separator: " ")
        case .reason: "reason:\"no-store\" — why (text; : contains, = equals, ~ regex)"
        case .status: "status>=500 — status code"
        case .method: "method:POST — request method"
        case .url: "url~^http://api — URL (entries: key); plain text alone is a URL substring"
        case .host: "host:example.com — URL's host"
        case .ttl: "ttl<30s — freshness left (s m h d; negative once stale)"
        case .age: "age>5m — response age (s m h d)"
        case .size: "size>1MB — bytes (B KB MB GB, 1024-based)"
        case .tier: "tier:disk — memory, disk or both (entries)"
        case .tag: "tag:product-42 — one of an entry's tags (Surrogate-Key), exactly"
        case .header: "h:cache-control~no-cache — request or response header (alone: present)"
        case .background: "bg — background refreshes (stale-while-revalidate)"
        case .instance: "instance:web — the attached instance (cachescope attach S1 S2 …)"
        }
    }

    /// Every field as written, for messages: `outcome, reason, …, h:NAME, bg`.
    public static let summary = allCases.map(\.syntax).joined(separator: ", ")

    /// Characters that start an operator: `:`, `=`, `~`, `<`, `>`.
    static let operatorCharacters: Set<Character> = [":", "=", "~", "<", ">"]

    /// The field named `name` (case-insensitive), if any.
    static func named(_ name: String) -> FilterField? {
        FilterField(rawValue: name.lowercased())
    }
}
