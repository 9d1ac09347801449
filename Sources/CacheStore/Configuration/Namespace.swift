public import Foundation

/// A part of the cache with its own directory and rules, chosen by the request URI: so an
/// app can give user data a short TTL and encryption while images keep a long TTL.
///
/// ```swift
/// let images = Namespace(name: "images", match: .pattern("https://cdn.example.com/*.png"),
///                        timeToLive: 7 * 86_400, diskLimit: 200 << 20)
/// ```
public struct Namespace: Sendable {
    /// How a namespace recognises its entries, tested against the normalised URI
    /// (`CacheKey.uri`: lower-case scheme and host, no default port).
    public enum Match: Sendable, Hashable, CustomStringConvertible {
        /// Every URI.
        case all
        /// URIs that start with this string.
        case prefix(String)
        /// URIs that match this glob: `*` stands for any run of characters (including `/`),
        /// `?` for one character; everything else matches itself.
        case pattern(String)

        /// Whether `uri` belongs to the namespace.
        public func matches(_ uri: String) -> Bool {
            switch self {
            case .all: return true
            case .prefix(let prefix): return uri.hasPrefix(prefix)
            case .pattern(let pattern): return Glob.matches(Array(pattern.utf8), Array(uri.utf8))
            }
        }

        public var description: String {
            switch self {
            case .all: return "all"
            case .prefix(let prefix): return "prefix \(prefix)"
            case .pattern(let pattern): return "pattern \(pattern)"
            }
        }
    }

    /// A name for reports and the listing.
    public var name: String
    /// Which URIs belong here.
    public var match: Match
    /// The subdirectory of ``StoreConfiguration/directory`` that holds it (letters, digits,
    /// `.`, `_`, `-`). Default: the name.
    public var directoryName: String
    /// Caps both `freshUntil` and `expiresAt` of its entries at `created + timeToLive`
    /// seconds. Default `nil`: no cap.
    public var timeToLive: TimeInterval?
    /// The most bytes it may hold on disk (the store's ``StoreConfiguration/diskCapacity``
    /// still bounds all namespaces together). Default `nil`: no own limit.
    public var diskLimit: Int?
    /// Encrypts its bodies, headers and index at rest, and names its files by HMAC.
    /// Default `nil`: plain.
    public var encryptionKey: EncryptionKey?

    /// A namespace; see each property for the defaults.
    public init(
        name: String, match: Match, directoryName: String? = nil, timeToLive: TimeInterval? = nil,
        diskLimit: Int? = nil, encryptionKey: EncryptionKey? = nil
    ) {
        self.name = name
        self.match = match
        self.directoryName = directoryName ?? name
        self.timeToLive = timeToLive
        self.diskLimit = diskLimit
        self.encryptionKey = encryptionKey
    }

    /// The namespace for URIs no other namespace matches: directory `default`, no TTL cap,
    /// no own limit, no encryption.
    public static let `default` = Namespace(name: "default", match: .all)

    /// Why the directory name cannot be used, or `nil` when it can.
    var directoryNameProblem: String? {
        if directoryName.isEmpty || directoryName == "." || directoryName == ".." {
            return "directory name \"\(directoryName)\" is not allowed"
        }
        let allowed = directoryName.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return allowed ? nil : "directory name \"\(directoryName)\" may hold only letters, digits, '.', '_' and '-'"
    }
}

/// Glob matching with `*` and `?`, iterative with one backtrack point (linear for patterns
/// with a single star, never exponential).
enum Glob {
    static func matches(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                starP = p
                starT = t
                p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
