public import CacheEvents
import CacheStore
import Foundation
public import HTTPCaching
import HTTPTypes
import SharedTier
import TrafficFilter

extension CachingClient {
    /// Carries out a command and reports it as events (`command`, then what it caused).
    /// Never throws: failures come back as an unsuccessful ``CommandResult``.
    public func perform(_ command: ClientCommand) async -> CommandResult {
        events.publish(.command(CommandInfo(name: command.name, key: command.key)))
        defer { publishStats() }
        switch command {
        case .purge(let key):
            guard let cacheKey = CacheKey(parsing: key) else { return Self.badKey(key) }
            let count = await Self.purgeLocally(.key(cacheKey), store: store, events: events)
            let shared = await purgeSharedTier(.key(cacheKey))
            // Nothing here under that key: say so (a proxy's keys are its origin's URLs, not its own).
            let none = count == 0 ? " (nothing is stored under that key)" : ""
            return CommandResult(succeeded: true, message: "purged \(Self.entries(count)) of \(Self.named(cacheKey))\(none)\(shared)")
        case .purgeTag(let tag):
            if let problem = SurrogateKeys.problem(with: tag) { return CommandResult(succeeded: false, message: "purge tag: \(problem)") }
            let count = await Self.purgeLocally(.tag(tag), store: store, events: events)
            let shared = await purgeSharedTier(.tag(tag))
            return CommandResult(succeeded: true, message: "purged \(Self.entries(count)) tagged \(tag)\(shared)")
        case .purgePrefix(let prefix):
            guard !prefix.isEmpty else {
                return CommandResult(succeeded: false, message: "purge prefix: the prefix is empty (purgeAll removes everything)")
            }
            let count = await Self.purgeLocally(.prefix(prefix), store: store, events: events)
            let shared = await purgeSharedTier(.prefix(prefix))
            return CommandResult(succeeded: true, message: "purged \(Self.entries(count)) under \(prefix)\(shared)")
        case .purgeFilter(let text):
            let filter: Filter
            do {
                filter = try Filter(text)
            } catch {
                return CommandResult(succeeded: false, message: "purge filter \"\(text)\": \(error)")
            }
            // A pattern given up on a stored entry: which to purge is unknown, so none is.
            guard let taken = await Self.entries(matching: filter, in: store) else {
                return CommandResult(succeeded: false, message: "purge filter \"\(text)\": nothing purged: \(filter.gaveUpMessage)")
            }
            let count = await Self.purgeLocally(.filter(text), store: store, events: events, taken: taken)
            // The purge's own moment, also when it is sent later: `ttl<0` means stale now, not then.
            let (now, storeConfiguration) = (configuration.now(), configuration.store)
            let shared = await purgeSharedTier(.filter(text)) { head in
                // Once a pattern is given up, no row more is taken (`!` would take it undecided).
                filter.matches(SharedRowSubject(head: head, now: now, tags: storeConfiguration.tags(of: head.stored))) && !filter.gaveUp
            }
            guard !filter.gaveUp else {
                // Given up on a shared-tier row: the rows decided before it went, the rest stayed.
                return CommandResult(
                    succeeded: false,
                    message: "purged \(Self.entries(count)) matching \(text)\(shared), but not every shared-tier row: \(filter.gaveUpMessage)")
            }
            return CommandResult(succeeded: true, message: "purged \(Self.entries(count)) matching \(text)\(shared)")
        case .purgeAll:
            let count = await Self.purgeLocally(.all, store: store, events: events)
            let shared = await purgeSharedTier(.all)
            return CommandResult(succeeded: true, message: "purged all \(Self.entries(count))\(shared)")
        case .purgeExpired:
            let count = await removeStaleEntries()
            events.publish(.purged(Purged(scope: .expired, count: count)))
            return CommandResult(succeeded: true, message: "purged \(Self.entries(count)) whose freshness ran out")
        case .refresh(let key, let variant):
            guard let cacheKey = CacheKey(parsing: key) else { return Self.badKey(key) }
            return await describe("refresh", cacheKey) { try await self.refresh(cacheKey, variant: variant) }
        case .reload(let key, let variant):
            guard let cacheKey = CacheKey(parsing: key) else { return Self.badKey(key) }
            return await describe("reload", cacheKey) { try await self.reload(cacheKey, variant: variant) }
        }
    }

    /// Revalidates a stored entry now with a conditional request (If-None-Match /
    /// If-Modified-Since), whatever its freshness; a full fetch when it has no validator.
    /// - Throws: ``CachingClientError/nothingToRefresh(url:)`` when nothing is stored under the key.
    @discardableResult
    public func refresh(_ key: CacheKey, variant: String? = nil) async throws -> ClientResponse {
        let candidates = await store.variants(for: key)
        guard let index = candidates.firstIndex(where: { variant == nil || $0.stored.varyKey.signature == variant }),
            let request = Self.request(for: key, variant: candidates[index].stored.varyKey)
        else { throw CachingClientError.nothingToRefresh(url: key.uri) }
        let run = RequestRun(id: events.makeRequestID(), request: request, body: nil, policy: .reloadRevalidatingCacheData, start: configuration.now())
        publishRequestStarted(run, key: key, policyName: "refresh")
        let decision = revalidationDecision(for: index, among: candidates, reason: .refreshCommand)
        events.publish(.lookup(Lookup(verdict: .stale, reason: RevalidationReason.refreshCommand.description)), requestID: run.id)
        do {
            return try await network(decision, reason: decision.reason, run: run, key: key, candidates: candidates)
        } catch {
            // `error`, then `requestFinished`, as every request that fails ends.
            finishWithError(error, run: run)
            throw error
        }
    }

    /// Fetches a key again unconditionally (`reloadIgnoringLocalCacheData`) and stores the answer.
    @discardableResult
    public func reload(_ key: CacheKey, variant: String? = nil) async throws -> ClientResponse {
        let candidates = await store.variants(for: key)
        let varyKey = candidates.first(where: { variant == nil || $0.stored.varyKey.signature == variant })?.stored.varyKey ?? .none
        guard let request = Self.request(for: key, variant: varyKey) else { throw CachingClientError.invalidURL(key.uri) }
        return try await data(for: request, policy: .reloadIgnoringLocalCacheData)
    }

    /// Removes every entry whose freshness has run out (what the dashboard shows as expired),
    /// whether or not it could still be revalidated; returns how many.
    func removeStaleEntries() async -> Int {
        let stale = await store.entries(now: configuration.now()).filter { ($0.ttlRemaining ?? 0) <= 0 }
        for entry in stale { store.removeEntry(entry.id) }
        return stale.count
    }

    /// A GET request for a key, carrying the header values a Vary variant was selected by.
    static func request(for key: CacheKey, variant: VaryKey) -> HTTPRequest? {
        var headers = HTTPFields()
        for field in variant.fields {
            if let value = field.value, let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: value)) }
        }
        return request(url: key.uri, headers: headers)
    }

    private func describe(_ verb: String, _ key: CacheKey, _ body: () async throws -> ClientResponse) async -> CommandResult {
        do {
            let result = try await body()
            let ttl = result.timeToLive.map { ", fresh for \(Int($0.rounded()))s" } ?? ""
            return CommandResult(succeeded: true, message: "\(verb) \(Self.named(key)): \(result.outcome) \(result.response.status.code)\(ttl)")
        } catch {
            return CommandResult(succeeded: false, message: "\(verb) \(Self.named(key)) failed: \(error)")
        }
    }

    /// Purges the shared tier, which tells every other instance; what it did, in words to
    /// append to the command's message (nothing without a shared tier).
    private func purgeSharedTier(_ scope: SharedPurge.Scope, matching: (@Sendable (OpenedHead) -> Bool)? = nil) async -> String {
        guard let sharedTier else { return "" }
        guard let count = await sharedTier.purge(scope, matching: matching) else {
            return "; the shared tier could not be reached: the purge reaches it and the other instances when it answers again"
        }
        return "; \(Self.entries(count)) from the shared tier, other instances told"
    }

    private static func badKey(_ key: String) -> CommandResult {
        CommandResult(succeeded: false, message: "not a cache key or URL: \"\(key)\"")
    }

    /// A key as a command's message names it: its URL for a GET key, `POST https://…` for
    /// any other method, so a purge of a POST's entries does not read as one of the GET's.
    static func named(_ key: CacheKey) -> String { key.method == "GET" ? key.uri : key.description }

    static func entries(_ count: Int) -> String { count == 1 ? "1 entry" : "\(count) entries" }
}
