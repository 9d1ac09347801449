import Foundation

/// The real `cachescope` binary this test bundle was built with, and running it directly.
enum Binary {
    /// The built `cachescope`: `CACHESCOPE_BINARY` if set, else the first `cachescope`
    /// executable found walking up from the test bundle (SwiftPM puts products and test bundles
    /// in the same build directory).
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CACHESCOPE_BINARY"], FileManager.default.isExecutableFile(atPath: path) { return path }
        let starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()]
            + Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("cachescope").path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: candidate) {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// What a finished process printed and its exit status.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary with `arguments`, stdin from /dev/null and stdout and stderr to files
    /// (not a terminal), and waits for it (at most `timeout`; then it is killed).
    static func run(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> Output {
        guard let path else { throw SetupError.binaryNotFound }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("cse2e-err-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let child = try Spawn.start([path] + arguments, errorPath: errors)
        let (status, stdout) = await child.wait(timeout: timeout)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return Output(status: status, stdout: stdout, stderr: stderr)
    }

    enum SetupError: Error, CustomStringConvertible {
        case binaryNotFound
        var description: String {
            "the cachescope binary was not found next to the test bundle; build it (swift build) or set CACHESCOPE_BINARY"
        }
    }
}

/// A temporary directory removed when the test is done with it.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
