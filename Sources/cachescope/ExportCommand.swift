import ArgumentParser
import CacheScopeApp

/// `cachescope export FILE --har OUT.har`: a session log as a HAR with cache fields.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a session log as a HAR 1.2 file whose entries carry the cache object and _cacheStatus, _ttl, _age.",
        discussion: "OUT is written whole or not at all (a temporary file renamed into place), with mode 0600."
    )

    @Argument(help: "A session log written with --record.")
    var file: String

    @Option(help: ArgumentHelp("The HAR file to write (replaced if it is a HAR or empty).", valueName: "OUT.har"))
    var har: String

    @OptionGroup var filter: FilterOption

    /// Every option's value checked, before anything starts (ArgumentParser has looked for
    /// `--help` and unknown options by then).
    private func checkOptions() throws {
        _ = try filter.parsed()
        _ = try input()
        _ = try output()
    }

    func run() throws {
        StandardErrorLogging.start()
        try reporting {
            try checkOptions()
            let parsed = try filter.parsed()
            let result = try LogExport.run(from: try input(), to: try output(), filter: parsed)
            FilterOption.reportGiveUp(parsed)
            for warning in result.warnings.prefix(20) { Console.warn("\(warning)") }
            if result.warnings.count > 20 { Console.writeError("cachescope: … and \(result.warnings.count - 20) more\n") }
            for line in result.leftOut { Console.warn(line) }
            try Console.write("wrote \(result.entries) entries to \(har)\n")
        }
    }

    private func input() throws -> InputPath {
        try InputPath(file, kind: .sessionLog, option: "FILE")
    }

    private func output() throws -> OutputPath {
        try OutputPath(har, kind: .har, option: "--har")
    }
}
