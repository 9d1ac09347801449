import Foundation

/// Runs the `CacheStoreCrashHelper` executable, which SwiftPM builds next to the test
/// bundle because the test target depends on it.
enum HelperProcess {
    /// The helper binary: the first directory up from the test runner (or its bundle) that
    /// holds a file named `CacheStoreCrashHelper`.
    static func locate() -> URL? {
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(), Bundle.main.bundleURL]
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<6 {
                let candidate = directory.appendingPathComponent("CacheStoreCrashHelper")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// Starts the helper on `directory` with a seed and a workload mode (`mixed`, or
    /// `freshen` for mostly 304 freshens); its stderr is captured.
    static func start(_ binary: URL, directory: URL, seed: UInt64, mode: String = "mixed") throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = [directory.path, String(seed), mode]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return (process, errors)
    }
}
