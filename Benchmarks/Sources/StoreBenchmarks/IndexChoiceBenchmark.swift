import BenchmarkSupport
@_spi(Benchmarks) import CacheStore
import Foundation

/// SQLite (WAL) versus an append-only journal for the disk index, on the same rows: the
/// cost of committing a batch, and of loading 100,000 rows at open.
enum IndexChoiceBenchmark {
    static func run(rows: Int) {
        print("\n## Index choice: SQLite versus append-only journal (\(rows) rows)")
        let directory = Workload.directory("index")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { Workload.remove(directory) }

        for (label, full) in [("SQLite WAL, synchronous=NORMAL (chosen)", false), ("SQLite WAL, synchronous=FULL", true)] {
            for batch in [1, 100] {
                let path = directory.path + "/commit-\(full)-\(batch).sqlite"
                let commits = try! IndexProbe.writeSQLite(path: path, rows: 2000, batchSize: batch, synchronousFull: full)
                print(Figures.summary("\(label): commit of \(batch) row(s)", commits.map(\.seconds)))
            }
        }
        for (label, sync) in [("journal, no sync (kill -9 safe)", false), ("journal, fdatasync per commit", true)] {
            for batch in [1, 100] {
                let journal = JournalPrototype(path: directory.path + "/commit-\(sync)-\(batch).journal")
                let samples = max(20, 2000 / batch)
                let batches = (0..<samples + 2).map { first in (first * batch..<(first + 1) * batch).map(IndexProbe.rowBytes) }
                var next = 0
                let commit = measure("\(label): commit of \(batch) row(s)", samples: samples, iterations: 1, warmup: 2) {
                    journal.append(batches[next], sync: sync)
                    next += 1
                }
                journal.close()
                print(commit.summary)
            }
        }

        let sqlitePath = directory.path + "/load.sqlite"
        _ = try! IndexProbe.writeSQLite(path: sqlitePath, rows: rows, batchSize: 1000, synchronousFull: false)
        let journalPath = directory.path + "/load.journal"
        let journal = JournalPrototype(path: journalPath)
        for start in stride(from: 0, to: rows, by: 1000) {
            journal.append((start..<min(rows, start + 1000)).map(IndexProbe.rowBytes), sync: false)
        }
        journal.close()
        let sqliteLoad = measure("SQLite: load \(rows) rows", samples: 5, warmup: 1) {
            precondition(try! IndexProbe.loadSQLite(path: sqlitePath) == rows)
        }
        print(sqliteLoad.summary)
        let journalLoad = measure("journal: replay \(rows) records", samples: 5, warmup: 1) {
            precondition(JournalPrototype.replay(path: journalPath) == rows)
        }
        print(journalLoad.summary)
        let sizes = [sqlitePath, journalPath].map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0 }
        print("size on disk: SQLite \(sizes[0] / 1024) KiB, journal \(sizes[1] / 1024) KiB (before any compaction)")
    }
}
