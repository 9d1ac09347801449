import CacheStore
import Foundation
import HTTPCaching
import SharedTier
import TrafficFilter

/// A shared-tier row as a purge by filter sees it: its key's method and URL, status, TTL and
/// age at `now`, and tags. It has no local tier and no size the tier keeps apart, so `tier:`
/// and `size` never match a row (nor `outcome`, `reason`, `h:NAME`, `bg`, as for any entry).
struct SharedRowSubject: FilterSubject {
    let head: OpenedHead
    let now: Date
    let tags: [String]

    var filterMethod: String? { head.stored.key.method }
    var filterURL: String? { head.stored.key.uri }
    var filterStatus: Int? { head.stored.status }
    var filterTTL: Double? { head.freshUntil.map { $0.timeIntervalSince(now) } }
    var filterAge: Double? { CacheRules().currentAge(of: head.stored, now: now) }
    var filterTags: [String]? { tags }
}
