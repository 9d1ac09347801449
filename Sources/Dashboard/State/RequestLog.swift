import Synchronization
public import TrafficFilter

/// The most recent requests, in arrival order, in a fixed-size ring: the Requests view's rows.
///
/// Every request gets a **serial** (0, 1, 2, … in order of `requestStarted`), which stays its
/// name while it is kept: selections and scroll positions hold serials, so they stay on the
/// same request while newer ones arrive. Once ``capacity`` newer requests have started, the
/// oldest is overwritten and its serial is gone.
///
/// Memory is bounded: at most ``capacity`` records, and an index of the requests still open
/// (started, not finished) that never holds more entries than the ring.
///
/// A filter's verdict on each record is remembered until the record changes
/// (``serials(matching:)``), so a filtered view costs per frame only the requests that are new
/// or still changing, not a match of every kept request.
public struct RequestLog: Sendable, Hashable {
    /// Numbers every change of any log's records with a new value, so that a remembered
    /// verdict is valid exactly while its record's revision is the same, in this log and in any
    /// copy of it.
    private static let lastRevision = Atomic<UInt64>(0)
    /// The default number of requests kept: 10,000.
    public static let defaultCapacity = 10_000

    /// The most requests kept.
    public let capacity: Int
    /// The records; `records[serial % capacity]` holds serial `serial` while it is kept.
    private var records: [RequestRecord] = []
    /// Requests started so far: the next serial.
    public private(set) var total = 0
    /// Open requests: (instance, request ID) → where the newest with that ID is and the seq of
    /// the event that started it. An entry goes when its request finishes, its life ends or
    /// its slot is overwritten. (Instances of a fleet number their requests alike.)
    private var open: [OpenRequest: OpenSince] = [:]
    /// Open requests an instance's next life took the ID of, oldest first: a process that
    /// comes back numbers its requests from 1 again, so its new life can start a request with
    /// the ID of one its old life left open before the old life's end is applied. Both stay
    /// open: the newest (in ``open``) answers to the ID — an instance's events arrive in
    /// order, so once its new life speaks the old one has nothing more to say — and the old
    /// life's end closes the old one by its start seq (``closeAll(instance:startedAtOrBefore:)``).
    /// Apart from ``open`` so that the common case costs no array per request; empty but
    /// around a restart.
    private var superseded: [(key: OpenRequest, since: OpenSince)] = []
    /// `revisions[slot]`: the revision of `records[slot]`'s last change.
    private var revisions: [UInt64] = []
    /// Filter verdicts by slot and revision (shared by copies; see ``lastRevision``).
    private let verdicts = FilterVerdicts()

    /// An empty log keeping at most `capacity` (at least 1) requests.
    public init(capacity: Int = RequestLog.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    // MARK: Reading

    /// How many requests are kept.
    public var count: Int { records.count }
    /// Whether no request has started.
    public var isEmpty: Bool { records.isEmpty }
    /// The newest serial, or `nil` when empty.
    public var newestSerial: Int? { total > 0 ? total - 1 : nil }
    /// The oldest serial still kept, or `nil` when empty.
    public var oldestSerial: Int? { total > 0 ? total - records.count : nil }

    /// Whether `serial` is still kept.
    public func contains(serial: Int) -> Bool {
        serial >= total - records.count && serial < total
    }

    /// The record with `serial`, or `nil` when it is not kept.
    public subscript(serial serial: Int) -> RequestRecord? {
        contains(serial: serial) ? records[serial % capacity] : nil
    }

    /// The serial of the still-open request with this ID (of `instance`, in a fleet): the
    /// newest life's when an older life's request with the same ID is still open too.
    public func openSerial(of id: UInt64, instance: UInt16 = 0) -> Int? { open[OpenRequest(id: id, instance: instance)]?.serial }

    /// Requests started and not yet finished (among those kept).
    public var openCount: Int { open.count + superseded.count }

    /// The kept serials whose records satisfy `isIncluded`, oldest first. Reads the records in
    /// place (no copy per record), because a filter runs this over every kept request per frame.
    public func serials(where isIncluded: (RequestRecord) -> Bool) -> [Int] {
        guard let oldest = oldestSerial else { return [] }
        return (oldest..<total).filter { isIncluded(records[$0 % capacity]) }
    }

    /// The kept serials whose records `filter` matches, oldest first. Matches only the records
    /// that changed since the last call with the same filter (on this log or a copy of it).
    public func serials(matching filter: Filter) -> [Int] {
        guard let oldest = oldestSerial else { return [] }
        // Matched in place, through a pointer (``RecordReference``): passing the record
        // itself copied it per row.
        return records.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return verdicts.serials(matching: filter, in: oldest..<total, capacity: capacity, revisions: revisions) { serial in
                filter.matches(RecordReference(record: base + serial % capacity))
            }
        }
    }

    /// Clamps a serial into the kept range (`nil` when empty).
    public func clamp(_ serial: Int) -> Int? {
        guard let newest = newestSerial, let oldest = oldestSerial else { return nil }
        return min(max(serial, oldest), newest)
    }

    // MARK: Writing

    /// Appends a started request, overwriting the oldest when full; returns its serial.
    /// `startSeq`: the seq of the event that started it (what ``closeAll(instance:startedAtOrBefore:)``
    /// tells lives apart by).
    @discardableResult
    public mutating func append(_ record: RequestRecord, startSeq: UInt64 = 0) -> Int {
        let serial = total
        let revision = Self.nextRevision()
        if records.count < capacity {
            records.append(record)
            revisions.append(revision)
        } else {
            let slot = serial % capacity
            let evicted = records[slot]
            let evictedKey = OpenRequest(id: evicted.id, instance: evicted.instance)
            let evictedSerial = serial - capacity
            if open[evictedKey]?.serial == evictedSerial { open[evictedKey] = nil }
            if !superseded.isEmpty { superseded.removeAll { $0.since.serial == evictedSerial } }
            records[slot] = record
            revisions[slot] = revision
        }
        let key = OpenRequest(id: record.id, instance: record.instance)
        if let older = open.updateValue(OpenSince(serial: serial, startSeq: startSeq), forKey: key) {
            superseded.append((key, older))
        }
        total += 1
        return serial
    }

    /// Changes the record with `serial` in place (nothing when it is no longer kept).
    public mutating func update(serial: Int, _ change: (inout RequestRecord) -> Void) {
        guard contains(serial: serial) else { return }
        change(&records[serial % capacity])
        revisions[serial % capacity] = Self.nextRevision()
    }

    /// Marks the open request `id` (of `instance`) as no longer open: the newest life's, the
    /// one ``openSerial(of:instance:)`` names.
    public mutating func close(id: UInt64, instance: UInt16 = 0) {
        open[OpenRequest(id: id, instance: instance)] = nil
    }

    /// Marks every open request of `instance` started by an event numbered at most
    /// `startedAtOrBefore` as no longer open (its instance went away after that event; a
    /// request it started later belongs to its next life); returns their serials, oldest first.
    public mutating func closeAll(instance: UInt16, startedAtOrBefore lastSeq: UInt64 = .max) -> [Int] {
        let ended = open.filter { $0.key.instance == instance && $0.value.startSeq <= lastSeq }
        for key in ended.keys { open[key] = nil }
        var closed = ended.values.map(\.serial)
        if !superseded.isEmpty {
            closed += superseded.filter { $0.key.instance == instance && $0.since.startSeq <= lastSeq }.map(\.since.serial)
            superseded.removeAll { $0.key.instance == instance && $0.since.startSeq <= lastSeq }
        }
        return closed.sorted()
    }

    private static func nextRevision() -> UInt64 {
        lastRevision.add(1, ordering: .relaxed).newValue
    }

    // MARK: Equality (of what is kept; revisions and remembered verdicts are bookkeeping)

    public static func == (lhs: RequestLog, rhs: RequestLog) -> Bool {
        lhs.capacity == rhs.capacity && lhs.total == rhs.total && lhs.records == rhs.records && lhs.open == rhs.open
            && lhs.superseded.elementsEqual(rhs.superseded) { $0.key == $1.key && $0.since == $1.since }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(capacity)
        hasher.combine(total)
        hasher.combine(records)
        hasher.combine(open)
        hasher.combine(superseded.count)
    }
}

/// Where an open request is, and since which event.
private struct OpenSince: Hashable, Sendable {
    var serial: Int
    var startSeq: UInt64
}

/// A request still open, by instance and request ID (of one life or, briefly, of two: see
/// ``RequestLog``'s `superseded`).
private struct OpenRequest: Hashable, Sendable {
    var id: UInt64
    var instance: UInt16
}
