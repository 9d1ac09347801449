import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The five kinds of bad input every path option is tried with, made in a temporary
/// directory, and a way to run the binary so that file permissions bind even when the tests
/// run as root.
enum InputKind: String, CaseIterable, CustomStringConvertible {
    case directory, missing, unreadable, empty, garbage

    var description: String { rawValue }

    /// Binary garbage: NUL bytes and bytes that are not UTF-8.
    static let garbageBytes: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xFF, 0xFE, 0x00, 0x00, 0xC3, 0x28, 0x9A]

    /// Makes a path of this kind in `directory` (`content` for the unreadable file) and returns it.
    func make(in directory: TemporaryDirectory, name: String, content: String = "{}\n") throws -> String {
        let path = directory.path("\(rawValue)-\(name)")
        switch self {
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case .missing:
            break
        case .unreadable:
            try content.write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, 0)
        case .empty:
            try Data().write(to: URL(fileURLWithPath: path))
        case .garbage:
            try Data(Self.garbageBytes).write(to: URL(fileURLWithPath: path))
        }
        return path
    }
}

extension Binary {
    /// `setpriv` when the tests run as root: it starts the binary without the capabilities that
    /// let root read and write any file, so a mode-000 file is as unreadable to it as to a user.
    static let withoutOverride: [String]? = {
        guard getuid() == 0 else { return [] }
        let candidates = ["/usr/bin/setpriv", "/bin/setpriv"]
        guard let setpriv = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    }()

    /// `setpriv` when the tests run as root: it starts the binary without the capability to
    /// administer the network (`CAP_NET_ADMIN`), as a user runs it — a socket option only that
    /// allows (`SO_DEBUG`, set by mistake for `TCP_NODELAY`) then fails as it does for them.
    static let asAUser: [String] = {
        guard getuid() == 0 else { return [] }
        let candidates = ["/usr/bin/setpriv", "/bin/setpriv"]
        guard let setpriv = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return [] }
        return [setpriv, "--bounding-set=-net_admin"]
    }()

    /// Runs the binary (through ``withoutOverride`` as root) and waits for it.
    static func runUnprivileged(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> Output {
        guard let path else { throw SetupError.binaryNotFound }
        guard let prefix = withoutOverride else { throw UnprivilegedError.noSetpriv }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("cse2e-err-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let child = try Spawn.start(prefix + [path] + arguments, errorPath: errors)
        let (status, stdout) = await child.wait(timeout: timeout)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return Output(status: status, stdout: stdout, stderr: stderr)
    }

    /// Runs the binary, unprivileged when `kind` is ``InputKind/unreadable`` (which only means
    /// something without root's override).
    static func run(_ arguments: [String], for kind: InputKind) async throws -> Output {
        kind == .unreadable ? try await runUnprivileged(arguments) : try await run(arguments)
    }

    enum UnprivilegedError: Error, CustomStringConvertible {
        case noSetpriv
        var description: String { "running as root without setpriv: a mode-000 file cannot be made unreadable" }
    }
}

/// What every path failure must look like: status 64, one line on stderr that starts with
/// `cachescope: COMMAND: `, names the path and says the problem — no usage text, no trap.
struct PathFailure {
    let output: Binary.Output

    var lines: [Substring] { output.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    func check(command: String, path: String, problem: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.status == 64, "status \(output.status): \(output.stderr)", sourceLocation: sourceLocation)
        #expect(lines.count == 1, "not one line:\n\(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.hasPrefix("cachescope: \(command): \(path)"), "\(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.contains(problem), "no \"\(problem)\" in: \(output.stderr)", sourceLocation: sourceLocation)
        for noise in ["Usage:", "Error:", "Fatal error", "Stack dump", "Help:"] {
            #expect(!output.stderr.contains(noise), "\(noise) in: \(output.stderr)", sourceLocation: sourceLocation)
        }
    }
}
