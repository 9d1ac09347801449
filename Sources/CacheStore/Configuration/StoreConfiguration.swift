public import Foundation
public import HTTPCaching
import HTTPTypes
public import Logging

/// How a ``ResponseStore`` is set up. Every property has a default; the defaults give a
/// memory-only store of 32 MiB.
///
/// ```swift
/// var configuration = StoreConfiguration()
/// configuration.directory = URL(fileURLWithPath: "/var/cache/myapp")
/// configuration.namespaces = [
///     Namespace(name: "user", match: .prefix("https://api.example.com/me/"),
///               timeToLive: 300, encryptionKey: try EncryptionKey(contentsOfFile: keyPath)),
/// ]
/// let store = try ResponseStore(configuration: configuration)
/// ```
public struct StoreConfiguration: Sendable {
    /// Bytes the memory tier may hold. Default 32 MiB.
    public var memoryCapacity: Int
    /// Bytes all namespaces together may hold on disk. Default 256 MiB.
    public var diskCapacity: Int
    /// The directory that holds one subdirectory per namespace; `nil` (default) keeps
    /// everything in memory.
    public var directory: URL?
    /// An entry larger than this share of a tier's capacity is not stored in that tier (as
    /// URLCache does). Default 0.05.
    public var maximumEntryShare: Double
    /// How many bytes of responses (their memory footprint) may wait for the disk. When the
    /// disk falls behind — a slow device, or a `syncfs` waiting for other processes' writes —
    /// a response stored beyond this is kept in memory only (the store logs how many), so the
    /// queue cannot grow without bound; an entry too large for memory is still queued.
    /// Default ``defaultDiskBacklogLimit`` (16 MiB).
    public var diskBacklogLimit: Int = StoreConfiguration.defaultDiskBacklogLimit
    /// 16 MiB.
    public static let defaultDiskBacklogLimit = 16 << 20
    /// How often expired entries are swept and access times written to the index.
    /// Default 60 seconds.
    public var sweepInterval: Duration
    /// Namespaces tried in order; the first whose ``Namespace/match`` fits a URI takes it.
    /// Default none.
    public var namespaces: [Namespace]
    /// The namespace for every URI no other one takes. Default ``Namespace/default``.
    public var defaultNamespace: Namespace
    /// The clock for created / last-access times, expiry and ages. Default `Date()`; tests
    /// and replays may supply their own.
    public var currentDate: @Sendable () -> Date
    /// Where the store logs (never to stdout). Default label `cachescope.store`.
    public var logger: Logger
    /// The response header field whose tags (surrogate keys, space-separated, Fastly's
    /// syntax: ``SurrogateKeys``) are indexed with each entry, so that
    /// ``ResponseStore/removeTagged(_:)`` can purge by tag. Default `Surrogate-Key`; `nil`
    /// indexes no tags. Must be a valid field name.
    public var tagField: String? = SurrogateKeys.defaultFieldName
    /// Where the disk tier keeps its entry files: real files (default), or memory for a
    /// simulation of a disk tier (``DiskMedium/simulated``, what-if replay uses it).
    public var diskMedium: DiskMedium = .files
    /// The file operations on entry files (a seam for fault injection in tests).
    var fileSystem: any StoreFileSystem

    /// A configuration; see each property for the defaults.
    public init(
        memoryCapacity: Int = 32 << 20,
        diskCapacity: Int = 256 << 20,
        directory: URL? = nil,
        maximumEntryShare: Double = 0.05,
        sweepInterval: Duration = .seconds(60),
        namespaces: [Namespace] = [],
        defaultNamespace: Namespace = .default,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "cachescope.store")
    ) {
        self.memoryCapacity = memoryCapacity
        self.diskCapacity = diskCapacity
        self.directory = directory
        self.maximumEntryShare = maximumEntryShare
        self.sweepInterval = sweepInterval
        self.namespaces = namespaces
        self.defaultNamespace = defaultNamespace
        self.currentDate = currentDate
        self.logger = logger
        self.fileSystem = PosixFileSystem()
    }

    /// The tag field as a name; `nil` when tags are off (or the name is invalid, which
    /// ``validate()`` refuses).
    var tagFieldName: HTTPField.Name? { tagField.flatMap { HTTPField.Name($0) } }

    /// The tags `response` carries in ``tagField``, within ``SurrogateKeys``' limits.
    public func tags(of response: StoredResponse) -> [String] {
        guard let name = tagFieldName else { return [] }
        return SurrogateKeys.tags(in: response.response.headerFields, fieldName: name)
    }

    /// Every namespace in matching order, the default last.
    var allNamespaces: [Namespace] { namespaces + [defaultNamespace] }

    /// Checks what would otherwise fail later.
    func validate() throws(CacheStoreError) {
        guard memoryCapacity >= 0 else { throw .invalidConfiguration("memoryCapacity must not be negative (is \(memoryCapacity))") }
        guard diskCapacity >= 0 else { throw .invalidConfiguration("diskCapacity must not be negative (is \(diskCapacity))") }
        guard maximumEntryShare > 0, maximumEntryShare <= 1 else {
            throw .invalidConfiguration("maximumEntryShare must be in (0, 1] (is \(maximumEntryShare))")
        }
        guard diskBacklogLimit > 0 else { throw .invalidConfiguration("diskBacklogLimit must be positive (is \(diskBacklogLimit))") }
        guard sweepInterval > .zero else { throw .invalidConfiguration("sweepInterval must be positive") }
        if let tagField, HTTPField.Name(tagField) == nil {
            throw .invalidConfiguration("tagField \"\(tagField)\" is not a header field name (letters, digits and !#$%&'*+-.^_`|~)")
        }
        var directoryNames = Set<String>()
        for namespace in allNamespaces {
            if let problem = namespace.directoryNameProblem { throw .invalidNamespace(name: namespace.name, reason: problem) }
            guard directoryNames.insert(namespace.directoryName).inserted else {
                throw .invalidNamespace(name: namespace.name, reason: "directory name \"\(namespace.directoryName)\" is used by another namespace")
            }
            if let ttl = namespace.timeToLive, !(ttl >= 0) || !ttl.isFinite {
                throw .invalidNamespace(name: namespace.name, reason: "timeToLive must be a finite number of seconds, not negative (is \(ttl)); leave it out for none")
            }
            if let limit = namespace.diskLimit, limit < 0 {
                throw .invalidNamespace(name: namespace.name, reason: "diskLimit must not be negative (is \(limit))")
            }
        }
    }
}
