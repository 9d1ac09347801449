public import SessionLog
import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the command will write, checked before any work starts, so a bad path fails at once
/// rather than after a demo has run.
///
/// - The path must not be a directory or a device, and its directory must exist and be
///   writable (outputs that are replaced are written to a temporary file there first).
/// - An existing file is **replaced** only when it is empty or already of the kind written (a
///   session log over a session log, a HAR over a HAR); a log file is **appended** to only when
///   it is text, and not a session log or a HAR. Anything else is left alone with ``PathError/wouldReplace(path:expected:)``.
///
/// ```swift
/// let output = try OutputPath("session.jsonl", kind: .sessionLog, option: "--record")
/// let staged = try output.stage()          // .session.jsonl.1f2e….tmp, mode 0600
/// // … write staged.temporaryPath …
/// try staged.commit()                      // renamed to session.jsonl
/// ```
public struct OutputPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// What will be written there.
    public let kind: FileKind

    /// Checks `path`.
    /// - Parameters:
    ///   - option: the option name used when `path` is empty (`--record`).
    /// - Throws: ``PathError`` naming the path and the problem.
    public init(_ path: String, kind: FileKind, option: String) throws(PathError) {
        switch try FileProbe.entry(ofArgument: path, option: option, failure: PathError.unwritable) {
        case .directory: throw .isDirectory(path: path, expected: kind)
        case .socket, .other: throw .notARegularFile(path: path, expected: kind)
        case .regularFile(let size):
            if let problem = FileProbe.access(path, W_OK) { throw .unwritable(path: path, reason: problem.description) }
            let head = try FileProbe.head(of: path)
            try Self.checkExisting(head, complete: size <= Int64(head.count), path: path, kind: kind)
            if !kind.appends { try Self.checkDirectory(of: path) }
        case .missing:
            try Self.checkDirectory(of: path)
        }
        self.path = path
        self.kind = kind
    }

    public var description: String { path }

    /// The directory the file is (or will be) in.
    public var directory: String { FileProbe.directory(of: path) }

    /// Creates an empty temporary file (mode 0600) beside the output, to be written and then
    /// renamed into place with ``StagedFile/commit()`` — or removed with
    /// ``StagedFile/discard()``, so a failure never leaves a partial output behind.
    /// - Throws: ``PathError/unwritable(path:reason:)`` when it cannot be created.
    public func stage() throws(PathError) -> StagedFile {
        do {
            return try StagedFile(finalPath: path)
        } catch {
            throw .unwritable(path: path, reason: error.reason ?? error.description)
        }
    }

    /// Temporary files beside the output that an earlier run killed with SIGKILL left (they
    /// hold what it recorded until then): `.NAME.RANDOM.tmp`, as ``stage()`` names them.
    public var leftoverStagedFiles: [String] {
        let name = FilePath(path).lastComponent?.string ?? path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { StagedFile.isTemporaryName($0, of: name) }
        .sorted()
        .map { directory == "." ? $0 : (directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0) }
        .filter { path in
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    // MARK: Checks

    /// Whether an existing file's first bytes allow replacing (or appending to) it.
    static func checkExisting(_ head: [UInt8], complete: Bool, path: String, kind: FileKind) throws(PathError) {
        if ContentSniffer.trimmed(head).isEmpty, complete { return }
        if kind.appends {
            if ContentSniffer.isBinary(head, complete: complete) { throw .wouldReplace(path: path, expected: kind) }
            if let format = ContentSniffer.format(head) {
                let name = format == .har ? "a HAR file" : "a session log"
                throw .unrecognised(
                    path: path, expected: kind, detail: "it is \(name), which log lines appended to it would spoil; choose another name")
            }
            return
        }
        guard let format = ContentSniffer.format(head), kind.replaceableFormats.contains(format) else {
            throw .wouldReplace(path: path, expected: kind)
        }
    }

    /// The output's directory exists, is a directory, and new files can be made in it.
    private static func checkDirectory(of path: String) throws(PathError) {
        let directory = FileProbe.directory(of: path)
        let entry = try FileProbe.entry(of: directory) { _, reason in
            .unwritable(path: path, reason: "directory \(directory): \(reason)")
        }
        switch entry {
        case .missing: throw .missingDirectory(path: path, directory: directory)
        case .directory: break
        case .regularFile, .socket, .other: throw .notADirectory(path: directory)
        }
        if let problem = FileProbe.access(directory, W_OK | X_OK) {
            throw .unwritable(path: path, reason: "directory \(directory): \(problem.description)")
        }
    }
}
