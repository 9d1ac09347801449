import DemoOrigin
import Foundation

/// The demo origin on loopback in a process of its own: this executable run with `--origin`.
/// Its allocations then stay out of the client's count (in one process they would be counted
/// with it, and a 304's count would include the origin's work).
final class OriginProcess {
    /// `http://127.0.0.1:PORT`, as the child printed it.
    let baseURL: String
    private let process: Process
    private let input = Pipe()

    /// Starts the child and waits for the line with its address.
    init() throws {
        let output = Pipe()
        process = Process.uncounted(arguments: ["--origin"])
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        baseURL = String(decoding: line, as: UTF8.self)
        guard baseURL.hasPrefix("http://") else { throw OriginProcessError.noAddress(printed: baseURL) }
    }

    /// Closes the child's standard input, which stops it, and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The child's side (`--origin`): serves until its standard input closes (when the parent
    /// calls ``stop()`` or exits).
    static func serve() async throws {
        let origin = try await DemoOrigin.start()
        print(origin.baseURL)
        fflush(nil)  // all streams: the parent waits for this line
        _ = await Task.detached { FileHandle.standardInput.readDataToEndOfFile() }.value
        try await origin.stop()
    }
}

/// The origin child did not start.
enum OriginProcessError: Error, CustomStringConvertible {
    case noAddress(printed: String)

    var description: String {
        switch self {
        case .noAddress(let printed): return "the origin process printed no address (got \"\(printed)\"); run `AllocationBenchmarks --origin` to see why"
        }
    }
}

extension Process {
    /// This executable run again with `arguments`, without the malloc interposer preloaded:
    /// a child whose allocations are not counted (the origin) or must not carry the
    /// interposer's per-allocation header (the store's footprint).
    static func uncounted(arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        process.environment = environment
        return process
    }
}
