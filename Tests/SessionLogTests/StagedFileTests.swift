import Foundation
import TestFixtures
import SessionLog
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What happens to a staged output at its end when its path or its temporary file changed
/// during the run (a hunt of 27 November).
@Suite("Staged outputs")
struct StagedFileTests {
    @Test("a file that replaceable refuses, put at the path meanwhile, is left alone and the content kept in the temporary file")
    func keptAside() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("x.jsonl")
        let staged = try StagedFile(finalPath: path)
        try staged.write(Data("recorded\n".utf8))
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SessionLogError.keptAside(file: path, keptAt: staged.temporaryPath)) {
            try staged.commit(replaceable: { $0.starts(with: Array("{".utf8)) })
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "my notes\n")
        #expect(try String(contentsOfFile: staged.temporaryPath, encoding: .utf8) == "recorded\n")
    }

    @Test("a temporary file removed during the run is said lost, not 'holds the events before the failure'")
    func lost() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("x.jsonl")
        let staged = try StagedFile(finalPath: path)
        #expect(unlink(staged.temporaryPath) == 0)
        #expect {
            try staged.commit()
        } throws: { error in
            guard case .lost = error as? SessionLogError else { return false }
            return "\(error)".hasSuffix("was removed during the run; nothing of it was kept")
        }
    }

    /// A directory made the rename fail and the recording was deleted; a FIFO hung the command
    /// at its end (a review of 27 November).
    @Test("a directory or a FIFO put at the path is left alone and the content kept, without blocking")
    func directoryOrFIFO() throws {
        let directory = try TemporaryDirectory()
        for kind in ["directory", "fifo"] {
            let path = directory.file("\(kind).jsonl")
            let staged = try StagedFile(finalPath: path)
            try staged.write(Data("recorded\n".utf8))
            if kind == "directory" {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } else {
                #expect(mkfifo(path, 0o600) == 0)
            }
            #expect(throws: SessionLogError.keptAside(file: path, keptAt: staged.temporaryPath)) {
                try staged.commit(replaceable: { _ in true })
            }
            #expect(try String(contentsOfFile: staged.temporaryPath, encoding: .utf8) == "recorded\n", "\(kind)")
        }
    }
}
