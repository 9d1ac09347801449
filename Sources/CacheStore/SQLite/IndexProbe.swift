import Crypto
import Foundation
import HTTPCaching

/// Drives ``IndexDatabase`` with synthetic rows so the benchmark can compare the SQLite index
/// with an append-only journal on the same work (docs/store.md records the figures).
/// SPI only; not part of the public API.
@_spi(Benchmarks)
public enum IndexProbe {
    /// The encoded form of synthetic row `number` as the journal prototype would store it
    /// (storage key, primary digest, size, four dates, hits, description).
    public static func rowBytes(_ number: Int) -> [UInt8] {
        let row = makeRow(number)
        var writer = BinaryWriter(reservingCapacity: 256)
        writer.append(raw: row.storageKey.bytes)
        writer.append(raw: row.primary.bytes)
        writer.write(UInt64(row.size))
        writer.write(row.created)
        writer.write(row.lastAccess)
        writer.write(UInt64(row.accessCount))
        writer.write(row.freshUntil)
        writer.write(row.expiresAt)
        writer.write(blob: row.info)
        return writer.bytes
    }

    /// Creates an index at `path` and writes `rows` synthetic rows in transactions of
    /// `batchSize`; returns the duration of each commit.
    public static func writeSQLite(path: String, rows: Int, batchSize: Int, synchronousFull: Bool) throws -> [Duration] {
        let database = try IndexDatabase(path: path)
        defer { database.close() }
        try database.setSynchronous(full: synchronousFull)
        let clock = ContinuousClock()
        var durations: [Duration] = []
        var number = 0
        while number < rows {
            let batch = (number..<min(rows, number + batchSize)).map(makeRow)
            number += batch.count
            let start = clock.now
            try database.apply(clearAll: false, writes: batch, deletes: [], accesses: [])
            durations.append(clock.now - start)
        }
        return durations
    }

    /// Loads every row of the index at `path` the way the store does at open; returns how many.
    public static func loadSQLite(path: String) throws -> Int {
        let database = try IndexDatabase(path: path)
        defer { database.close() }
        return try database.loadRows().count
    }

    static func makeRow(_ number: Int) -> IndexDatabase.RowWrite {
        let uri = "https://example.com/items/\(number)?page=\(number % 17)"
        let key = CacheKey(method: "GET", uri: uri)!
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(number))
        let info = EntryInfo(
            id: EntryID(key: key, varySignature: ""), status: 200, eTag: "\"\(number)\"",
            lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", requestTime: now, responseTime: now, initialAge: 0)
        return IndexDatabase.RowWrite(
            storageKey: StorageKey(SHA256.hash(data: Array("e\(number)".utf8))),
            primary: StorageKey(SHA256.hash(data: Array("k\(number)".utf8))), size: 10_240 + number % 100,
            created: now, lastAccess: now, accessCount: number % 5, freshUntil: now.addingTimeInterval(60),
            expiresAt: now.addingTimeInterval(86_400), body: BodyID(UInt64(number)), info: info.encoded())
    }
}
