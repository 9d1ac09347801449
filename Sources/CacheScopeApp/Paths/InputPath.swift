import SystemPackage

/// A file the command will read, checked before any work starts: it exists, is a regular
/// file, can be read, is not empty, is text, and starts like the ``FileKind`` expected.
///
/// ```swift
/// let input = try InputPath("capture.har", kind: .sessionLogOrHAR, option: "FILE")
/// input.format   // .har — from the first bytes, whatever the file is called
/// ```
///
/// Only the first ``ContentSniffer/headLength`` bytes are read; a problem further in is the
/// reader's to report (with its line number).
public struct InputPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// What the file should be.
    public let kind: FileKind
    /// The format the file's first bytes show, whatever its name; `nil` when they show none
    /// CacheScope knows.
    public let format: FileFormat?

    /// Checks `path`.
    /// - Parameters:
    ///   - option: the option or argument name used when `path` is empty (`--theme`, `FILE`).
    /// - Throws: ``PathError`` naming the path and the problem.
    public init(_ path: String, kind: FileKind, option: String) throws(PathError) {
        let size: Int64
        switch try FileProbe.entry(ofArgument: path, option: option) {
        case .missing: throw .notFound(path: path, expected: kind)
        case .directory: throw .isDirectory(path: path, expected: kind)
        case .socket, .other: throw .notARegularFile(path: path, expected: kind)
        case .regularFile(let bytes): size = bytes
        }
        if let largest = kind.largestSize, size > largest {
            throw .unreadable(path: path, reason: "it is \(size) bytes, and \(kind.withArticle) may have at most \(largest) (\(largest >> 20) MiB)")
        }
        let head = try FileProbe.head(of: path)
        try Self.check(head, complete: size <= Int64(head.count), path: path, kind: kind)
        self.path = path
        self.kind = kind
        format = ContentSniffer.format(head)
    }

    public var description: String { path }

    /// The content checks, apart from the file system for tests.
    static func check(_ head: [UInt8], complete: Bool, path: String, kind: FileKind) throws(PathError) {
        let content = ContentSniffer.trimmed(head)
        if content.isEmpty, complete { throw .empty(path: path, expected: kind) }
        if ContentSniffer.isBinary(head, complete: complete) { throw .binary(path: path, expected: kind) }
        switch kind.content {
        case .text:
            return
        case .jsonObject:
            guard content.first == UInt8(ascii: "{") else {
                throw .unrecognised(
                    path: path, expected: kind,
                    detail: "it starts with \"\(ContentSniffer.opening(head))\", not a JSON object's \"{\"")
            }
        }
    }
}
