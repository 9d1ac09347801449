import CacheEvents
import HTTPCaching
import HTTPTypes
import TrafficFilter

/// A request record matched where it lies in the log's buffer. Handing the filter each
/// record itself made a copy of it per row (a retain per field: the largest cost of the first
/// frame after a filter change, which matches all 10,000 kept rows, perf); through this
/// pointer the filter reads only the fields its predicates ask for.
///
/// Valid only while the buffer it points into is (inside `withUnsafeBufferPointer`).
struct RecordReference: RequestFilterSubject {
    let record: UnsafePointer<RequestRecord>

    var method: String { record.pointee.method }
    var url: String { record.pointee.url }
    var policy: String { record.pointee.policy }
    var requestHeaders: HTTPFields { record.pointee.requestHeaders }
    var lookup: Lookup? { record.pointee.lookup }
    var revalidation: RevalidationSent? { record.pointee.revalidation }
    var served: Served? { record.pointee.served }
    var finished: RequestFinished? { record.pointee.finished }
    var filterInstance: String? { record.pointee.filterInstance }
}
