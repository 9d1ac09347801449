import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// Responses, bodies and directories for the benchmarks.
enum Workload {
    static let epoch = Date()

    static func uri(_ number: Int) -> String { "https://bench.example/items/\(number)?v=\(number % 13)" }

    static func key(_ number: Int) -> CacheKey { CacheKey(method: "GET", uri: uri(number))! }

    static func response(_ number: Int) -> StoredResponse {
        let fields: HTTPFields = [
            .cacheControl: "max-age=3600", .contentType: "application/json", .eTag: "\"\(number)\"",
            .lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
        ]
        return StoredResponse(
            key: key(number), response: HTTPResponse(status: .ok, headerFields: fields), requestTime: epoch,
            responseTime: epoch, varyKey: .none)
    }

    static func body(_ size: Int, seed: Int = 0) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ seed) }
    }

    /// Stores entries 0..<count with bodies of `size` bytes.
    static func fill(_ store: ResponseStore, count: Int, size: Int, policy: StoragePolicy = .allowed) {
        let body = body(size)
        for number in 0..<count {
            store.storeCachedResponse(
                response(number), body: body, freshUntil: epoch.addingTimeInterval(3600),
                expiresAt: epoch.addingTimeInterval(86_400), policy: policy)
        }
    }

    /// A fresh directory under the temporary directory (removed by `remove`).
    static func directory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-\(label)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// `length` indices in 0..<count drawn from a Zipf distribution (exponent 1), the usual
    /// shape of HTTP cache traffic: a few keys are hot, most are rare. Deterministic.
    static func zipfSequence(count: Int, length: Int) -> [Int] {
        var cumulative: [Double] = []
        cumulative.reserveCapacity(count)
        var total = 0.0
        for rank in 1...count {
            total += 1 / Double(rank)
            cumulative.append(total)
        }
        var state: UInt64 = 0x2545_f491_4f6c_dd1d
        return (0..<length).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let target = Double(state >> 11) / Double(1 << 53) * total
            var low = 0, high = count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            // Spread hot ranks over the key space so hot entries are not neighbours in memory.
            return (low &* 7919) % count
        }
    }

    static let key32 = try! EncryptionKey(bytes: (0..<32).map { UInt8($0) })
}
