import TestFixtures
import Foundation
import Logging
import Testing
@testable import TerminalUI

/// Logging to a file while the dashboard owns the terminal.
@Suite("File log handler", .timeLimit(.minutes(1)))
struct FileLogHandlerTests {
    private func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    @Test("messages become one line each with level, label, metadata and source")
    func format() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/app.log"
        let file = try LogFile(path: path)
        var logger = Logger(label: "cachescope.test") { FileLogHandler(label: $0, file: file, level: .debug) }
        logger[metadataKey: "view"] = "requests"
        logger.debug("purged", metadata: ["key": "GET https://x/\u{1B}[2J"])
        logger.trace("dropped: below the level")
        logger.error("two\nlines")
        let written = try lines(of: path)
        #expect(written.count == 2)
        #expect(written[0].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z debug cachescope\.test: purged key=GET https://x/\\e\[2J view=requests \(FileLogHandlerTests\.swift:\d+\)$"#, options: .regularExpression) != nil, "\(written[0])")
        #expect(written[1].contains(" error cachescope.test: two\\nlines "))
    }

    @Test("lines from many threads stay whole")
    func concurrent() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/app.log"
        let file = try LogFile(path: path)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let logger = Logger(label: "t\(task)") { FileLogHandler(label: $0, file: file) }
                    for index in 0..<100 { logger.info("message \(index) \(String(repeating: "x", count: 200))") }
                }
            }
        }
        let written = try lines(of: path)
        #expect(written.count == 800)
        #expect(written.allSatisfy { $0.contains(" info t") && $0.contains(String(repeating: "x", count: 200) + " (") })
    }

    @Test("appends to an existing file and reports a folder that does not exist")
    func openErrors() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("old.log", "earlier\n")
        try LogFile(path: path).append("later")
        #expect(try lines(of: path) == ["earlier", "later"])
        let missing = folder.path + "/no/such/dir.log"
        #expect(throws: LogFile.OpenError.cannotOpen(path: missing, reason: "No such file or directory")) {
            try LogFile(path: missing)
        }
        #expect(LogFile.OpenError.cannotOpen(path: "/x.log", reason: "Permission denied").description
            == "cannot open log file \"/x.log\": Permission denied (check that its folder exists and is writable)")
    }
}
