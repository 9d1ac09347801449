import NIOCore
import Synchronization

/// Sends one instance's concurrent lookups to the database together.
///
/// A lookup that finds fewer than ``limit`` queries under way sends its own at once, in its own
/// task, so a lone request waits for nothing. One that finds them all busy waits in a queue,
/// and the first query to end hands the lead to the first waiter. That one lets the lookups the
/// ended query answered run first (they often ask again at once), then takes the queue (up to
/// ``maximumBatch`` distinct keys) and sends it as one query (`key_digest = ANY($1)`), giving
/// every waiter its rows. Under load a query then carries several keys: PostgreSQL, PostgresNIO
/// and the pool pay their per-query cost once for all of them (docs/shared-tier.md#performance).
///
/// Waiting is bounded: a lookup still queued ``maximumWait`` after it arrived is answered as
/// failed (a miss) when the next query ends or the next batch is taken, so it waits at most
/// that long plus one query. A batch runs in a task of its own, so that the cancellation of
/// the request that leads it does not fail the others'. A batch that fails is a miss for every
/// key in it (the tier fails open).
final class LookupBatcher<Rows: Sendable>: Sendable {
    /// What a waiter is woken with: its rows (`nil`: the query failed, or the wait was too
    /// long), the lead of the next batch, or a free slot (a query ended while it was queueing:
    /// it goes alone, as a lookup that found the slot free does).
    private enum Turn: Sendable {
        case rows(Rows?)
        case lead
        case slotFreed
    }

    private struct Waiter: Sendable {
        let digest: ByteBuffer
        let arrived: ContinuousClock.Instant
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var inFlight = 0
        var queue: [Waiter] = []
        var largestBatch = 0
    }

    /// How many queries may be under way at once.
    let limit: Int
    /// The most distinct keys one query carries.
    let maximumBatch: Int
    /// How long a lookup may wait in the queue before it is answered as a miss.
    let maximumWait: Duration
    private let state = Mutex(State())

    /// The most keys a batch taken from the queue has carried so far (0 while no lookup has
    /// waited). A test seam.
    var largestBatch: Int { state.withLock { $0.largestBatch } }
    /// How many lookups wait for a batch. A test seam.
    var waiting: Int { state.withLock { $0.queue.count } }

    init(limit: Int, maximumBatch: Int, maximumWait: Duration) {
        precondition(limit > 0 && maximumBatch > 0, "a batcher needs room for one query of one key")
        self.limit = limit
        self.maximumBatch = maximumBatch
        self.maximumWait = maximumWait
    }

    /// The rows for `digest`: from a query of its own when one may start, or from a batch;
    /// `nil` when its query failed or it waited too long. `query` looks up several distinct
    /// digests at once and returns each one's rows (a digest it leaves out has `none`), or `nil`
    /// when it failed.
    func rows(
        for digest: ByteBuffer, query: @escaping @Sendable ([ByteBuffer]) async -> [ByteBuffer: Rows]?, none: Rows
    ) async -> Rows? {
        let leads = state.withLock { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            return true
        }
        var batch: (others: [Waiter], digests: [ByteBuffer]) = ([], [digest])
        if !leads {
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                let queued = state.withLock { state in
                    // A query ended between the two looks: lead after all.
                    guard state.inFlight >= limit else {
                        state.inFlight += 1
                        return false
                    }
                    state.queue.append(Waiter(digest: digest, arrived: .now, continuation: continuation))
                    return true
                }
                if !queued { continuation.resume(returning: .slotFreed) }
            }
            switch turn {
            case .rows(let rows):
                return rows
            case .slotFreed:
                break
            case .lead:
                // The lookups the ended query answered were resumed before this one: let them
                // run first, so that those asking again at once are in the queue this batch takes.
                await Task.yield()
                batch = takeBatch(leading: digest)
            }
        }
        let (others, digests) = batch
        // Alone, in the request's own task; with others, in a task of its own (see above).
        let found = others.isEmpty ? await query(digests) : await Task { await query(digests) }.value
        for waiter in others { waiter.continuation.resume(returning: .rows(found.map { $0[waiter.digest] ?? none })) }
        handOn()
        return found.map { $0[digest] ?? none }
    }

    /// A query ended: lookups that waited too long are answered as misses; the first of the
    /// rest leads the next batch, or the slot is free.
    private func handOn() {
        let (expired, leader) = state.withLock { state -> ([Waiter], Waiter?) in
            let expired = Self.removeExpired(from: &state.queue, maximumWait: maximumWait)
            guard !state.queue.isEmpty else {
                state.inFlight -= 1
                return (expired, nil)
            }
            return (expired, state.queue.removeFirst())
        }
        for waiter in expired { waiter.continuation.resume(returning: .rows(nil)) }
        leader?.continuation.resume(returning: .lead)
    }

    /// The waiters that go with the lead's query for `digest` — those for its key and for up to
    /// `maximumBatch - 1` other distinct keys, first come first — and the distinct digests the
    /// query carries, `digest` first; lookups that waited too long are answered as misses.
    private func takeBatch(leading digest: ByteBuffer) -> (others: [Waiter], digests: [ByteBuffer]) {
        let (expired, batch, digests) = state.withLock { state -> ([Waiter], [Waiter], [ByteBuffer]) in
            let expired = Self.removeExpired(from: &state.queue, maximumWait: maximumWait)
            var batch: [Waiter] = [], digests = [digest], rest: [Waiter] = []
            for waiter in state.queue {
                if digests.contains(waiter.digest) {
                    batch.append(waiter)
                } else if digests.count < maximumBatch {
                    digests.append(waiter.digest)
                    batch.append(waiter)
                } else {
                    rest.append(waiter)
                }
            }
            state.queue = rest
            state.largestBatch = max(state.largestBatch, digests.count)
            return (expired, batch, digests)
        }
        for waiter in expired { waiter.continuation.resume(returning: .rows(nil)) }
        return (batch, digests)
    }

    /// Takes the waiters that arrived more than `maximumWait` ago out of `queue` (oldest first).
    private static func removeExpired(from queue: inout [Waiter], maximumWait: Duration) -> [Waiter] {
        guard let first = queue.first else { return [] }
        let oldest = ContinuousClock.now - maximumWait
        guard first.arrived < oldest else { return [] }
        let expired = queue.filter { $0.arrived < oldest }
        queue.removeAll { $0.arrived < oldest }
        return expired
    }
}
