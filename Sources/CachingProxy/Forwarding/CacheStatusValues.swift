import Synchronization

/// `Cache-Status` field values already written, by what they say: a proxy's responses repeat a
/// few (a hit with the same whole seconds of `ttl`, a miss stored for a minute), and the
/// structured-field serializer, with its ordered map of parameters, costs more than the rest of
/// a hit's response head (3 % of a hit's CPU in a `perf` profile of `proxy-vs-nginx.sh`).
///
/// Holds at most ``limit`` values; when full it starts again empty.
final class CacheStatusValues: Sendable {
    /// The most values kept.
    let limit: Int
    /// The cache's name in every value.
    let cacheName: String
    /// Values by the status they say, its `ttl` in the whole seconds written
    /// (``CacheStatus/asWritten``).
    private let values = Mutex<[CacheStatus: String]>([:])

    init(cacheName: String, limit: Int = 4_096) {
        self.cacheName = cacheName
        self.limit = limit
    }

    /// `status`'s field value (``CacheStatus/fieldValue(cacheName:)``), written once per shape.
    func value(for status: CacheStatus) -> String? {
        let key = status.asWritten
        if let known = values.withLock({ $0[key] }) { return known }
        guard let value = key.fieldValue(cacheName: cacheName) else { return nil }
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }

    /// How many values are kept. A test seam.
    var count: Int { values.withLock { $0.count } }
}
