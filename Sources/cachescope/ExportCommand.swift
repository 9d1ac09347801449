import ArgumentParser
import CacheScopeApp
import CacheEvents
import SessionLog
import Foundation

/// `cachescope export FILE --har OUT.har`: a session log as a HAR with cache fields.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a session log as a HAR 1.2 file whose entries carry the cache object and _cacheStatus, _ttl, _age."
    )

    @Argument(help: "A session log written with --record.")
    var file: String

    @Option(help: ArgumentHelp("The HAR file to write.", valueName: "OUT.har"))
    var har: String

    func validate() throws {
        guard !har.isEmpty else { throw ValidationError("--har needs a file name") }
    }

    func run() throws {
        let log = try SessionLogReader.load(file)
        for warning in log.warnings.prefix(20) { FileHandle.standardError.write(Data("cachescope: \(warning)\n".utf8)) }
        let export = HARExporter().export(log)
        try export.archive.write(to: har)
        print("wrote \(export.archive.log.entries.count) entries to \(har)")
    }
}
