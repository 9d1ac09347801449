import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// Each policy against each kind of endpoint of the demo origin: a first request with the
/// default policy stores (or does not store) the response, the clock moves on, and a second
/// request under the policy is answered. The outcome says what the cache did; the origin's
/// request count proves what went to the network.
///
/// Every expectation follows RFC 9111 (with RFC 5861 and RFC 8246) and the policy table in
/// docs/policies.md, in a private cache:
///
/// - `protocol`: fresh → `hit`; stale → conditional request (`revalidated` on 304, `modified`
///   on a new 200), or a full fetch (`miss`) without a validator; `stale` within
///   `stale-while-revalidate` (one refresh in the background) or when `stale-if-error` covers
///   an origin error.
/// - `reload`, `reload-all`: never read the store (`bypass`), always fetch.
/// - `cache-else-load`, `cache-only`: any stored response that matches Vary, however stale
///   (`hit` / `stale`, no network); with nothing stored the first fetches (`miss`), the second
///   throws `notCached`.
/// - `revalidate`: always a conditional request first, except for a fresh `immutable`
///   response; a full fetch (`miss`) for a stored response without a validator.
///
/// A redirect is followed hop by hop, each hop through the cache under the same policy; the
/// outcome is the last hop's.
@Suite("Every CachePolicy against every endpoint kind", .timeLimit(.minutes(2)))
struct PolicyMatrixTests {
    /// What the second request answers.
    enum Answer: Sendable, Equatable, CustomStringConvertible {
        /// A response with this outcome and status.
        case served(CacheOutcome, status: Int)
        /// `CachingClientError.notCached`: nothing stored and the policy forbids the network.
        case notCached

        var description: String {
            switch self {
            case .served(let outcome, let status): status == 200 ? "\(outcome)" : "\(outcome) with \(status)"
            case .notCached: "notCached error"
            }
        }
    }

    /// One policy's expected answer and origin request counts.
    struct Expectation: Sendable {
        let answer: Answer
        /// Requests the origin saw for the case's path, both requests (and any PUT) together.
        let requests: Int
        /// Requests the origin saw for the redirect's target, when the path redirects.
        var targetRequests: Int?

        static func outcome(_ outcome: CacheOutcome, _ requests: Int, status: Int = 200, target: Int? = nil) -> Expectation {
            Expectation(answer: .served(outcome, status: status), requests: requests, targetRequests: target)
        }

        static func notCached(_ requests: Int, target: Int? = nil) -> Expectation {
            Expectation(answer: .notCached, requests: requests, targetRequests: target)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let policy: CachePolicy
        let path: String
        /// Seconds the clock moves between the two requests.
        let advance: Double
        let firstHeaders: HTTPFields
        let secondHeaders: HTTPFields
        /// Words saying how the case differs from a plain repeat, e.g. `Accept-Language en, then fr`.
        let note: String?
        /// Whether another client changes the resource (a PUT straight to the origin) after the advance.
        let changedElsewhere: Bool
        /// The path the response redirects to, whose requests are counted too.
        let redirectTarget: String?
        let expected: Expectation

        var testDescription: String {
            let days = advance / 86_400
            let after = advance >= 86_400 && days == days.rounded() ? "\(Int(days)) days" : "\(Int(advance)) s"
            var counts = "\(expected.requests) request\(expected.requests == 1 ? "" : "s")"
            if changedElsewhere { counts += " incl. the PUT" }
            if let redirectTarget, let target = expected.targetRequests { counts += ", \(target) to \(redirectTarget)" }
            let detail = note.map { " (\($0))" } ?? ""
            return "\(policy.commandLineName) \(path)\(detail) after \(after) → \(expected.answer) (\(counts))"
        }
    }

    /// What each of the six policies does with one endpoint. The two reload policies never read
    /// the store, so they always share one expectation.
    struct Columns: Sendable {
        let `protocol`, reloads, cacheElseLoad, cacheOnly, revalidate: Expectation

        /// Stored, still fresh, with a validator: a hit, except that `revalidate` gets a 304.
        static let freshWithValidator = Columns(
            protocol: .outcome(.hit, 1), reloads: .outcome(.bypass, 2), cacheElseLoad: .outcome(.hit, 1),
            cacheOnly: .outcome(.hit, 1), revalidate: .outcome(.revalidated, 2))
        /// Stored, still fresh, without a validator: `revalidate` can only fetch it in full.
        static let freshWithoutValidator = Columns(
            protocol: .outcome(.hit, 1), reloads: .outcome(.bypass, 2), cacheElseLoad: .outcome(.hit, 1),
            cacheOnly: .outcome(.hit, 1), revalidate: .outcome(.miss, 2))
        /// Stored, stale, with a validator: a 304 under `protocol` and `revalidate`, served stale
        /// without asking under `cache-else-load` and `cache-only`.
        static let staleWithValidator = Columns(
            protocol: .outcome(.revalidated, 2), reloads: .outcome(.bypass, 2), cacheElseLoad: .outcome(.stale, 1),
            cacheOnly: .outcome(.stale, 1), revalidate: .outcome(.revalidated, 2))

        /// Not stored (or not for this request), answered with `status`: every policy that may use
        /// the network fetches again, `cache-only` has nothing.
        static func notStored(status: Int = 200) -> Columns {
            Columns(
                protocol: .outcome(.miss, 2, status: status), reloads: .outcome(.bypass, 2, status: status),
                cacheElseLoad: .outcome(.miss, 2, status: status), cacheOnly: .notCached(1), revalidate: .outcome(.miss, 2, status: status))
        }
    }

    /// One row of the matrix: an endpoint and what each of the six policies does with it.
    static func row(
        _ path: String, after advance: Double, headers: HTTPFields = [:], thenHeaders: HTTPFields? = nil,
        note: String? = nil, changedElsewhere: Bool = false, redirectTarget: String? = nil, _ columns: Columns
    ) -> [Case] {
        let expectations: [(CachePolicy, Expectation)] = [
            (.useProtocolCachePolicy, columns.protocol),
            (.reloadIgnoringLocalCacheData, columns.reloads),
            (.reloadIgnoringLocalAndRemoteCacheData, columns.reloads),
            (.returnCacheDataElseLoad, columns.cacheElseLoad),
            (.returnCacheDataDontLoad, columns.cacheOnly),
            (.reloadRevalidatingCacheData, columns.revalidate),
        ]
        return expectations.map { policy, expected in
            Case(
                policy: policy, path: path, advance: advance, firstHeaders: headers, secondHeaders: thenHeaders ?? headers,
                note: note, changedElsewhere: changedElsewhere, redirectTarget: redirectTarget, expected: expected)
        }
    }

    static let cases: [Case] = [
        // /max-age/{N}: explicit freshness (§4.2.1), strong ETag and Last-Modified.
        row("/max-age/60", after: 5, .freshWithValidator),
        row("/max-age/1", after: 5, .staleWithValidator),
        // /s-maxage/{N}: a private cache ignores s-maxage (§5.2.2.10), so max-age=1 has run out.
        row("/s-maxage/60", after: 5, .staleWithValidator),
        // /no-cache: stored, but validated before every protocol use (§5.2.2.4).
        row("/no-cache", after: 5, .staleWithValidator),
        // /last-modified: heuristic freshness (§4.2.2), 10% of 10 days; validated with If-Modified-Since.
        row("/last-modified", after: 5, .freshWithValidator),
        row("/last-modified", after: 2 * 86_400, .staleWithValidator),
        // /no-store: never stored (§5.2.2.5), so nothing can be served from the cache.
        row("/no-store", after: 5, .notStored()),
        // /private/{N}: a private cache may store it (§5.2.2.7).
        row("/private/60", after: 5, .freshWithValidator),
        // /vary/lang: a stored variant is used only for a request with the same Accept-Language (§4.1).
        row("/vary/lang", after: 5, headers: [.acceptLanguage: "en"], note: "Accept-Language en twice", .freshWithValidator),
        row(
            "/vary/lang", after: 5, headers: [.acceptLanguage: "en"], thenHeaders: [.acceptLanguage: "fr"],
            note: "Accept-Language en, then fr", .notStored()),
        // /rotating/{N}: after N seconds the ETag has changed, so a conditional request gets a 200.
        row(
            "/rotating/10", after: 10,
            Columns(
                protocol: .outcome(.modified, 2), reloads: .outcome(.bypass, 2),
                cacheElseLoad: .outcome(.stale, 1), cacheOnly: .outcome(.stale, 1),
                revalidate: .outcome(.modified, 2))),
        // /immutable: fresh for a year and not revalidated while fresh, even on request (RFC 8246).
        row(
            "/immutable", after: 5,
            Columns(
                protocol: .outcome(.hit, 1), reloads: .outcome(.bypass, 2),
                cacheElseLoad: .outcome(.hit, 1), cacheOnly: .outcome(.hit, 1),
                revalidate: .outcome(.hit, 1))),
        // /swr/{maxAge}/{swr}: within the window, served stale and refreshed once in the background
        // (RFC 5861 §3); the revalidate policy validates first instead.
        row(
            "/swr/1/600", after: 5,
            Columns(
                protocol: .outcome(.stale, 2), reloads: .outcome(.bypass, 2),
                cacheElseLoad: .outcome(.stale, 1), cacheOnly: .outcome(.stale, 1),
                revalidate: .outcome(.revalidated, 2))),
        // Past the window a stale response is revalidated before use, as without the directive.
        row("/swr/1/2", after: 10, note: "past the window", .staleWithValidator),
        // /sie/{maxAge}/{sie}: the origin answers 500 the second time; within the window the stored
        // response stands in (RFC 5861 §4), except under reload policies, which never read the store.
        row(
            "/sie/1/600", after: 10,
            Columns(
                protocol: .outcome(.stale, 2), reloads: .outcome(.bypass, 2, status: 500),
                cacheElseLoad: .outcome(.stale, 1), cacheOnly: .outcome(.stale, 1),
                revalidate: .outcome(.stale, 2))),
        // Past the stale-if-error window the 500 reaches the caller; `cache-else-load` and
        // `cache-only` still serve the stored response, however stale, without asking.
        row(
            "/sie/1/5", after: 60, note: "past the window",
            Columns(
                protocol: .outcome(.miss, 2, status: 500), reloads: .outcome(.bypass, 2, status: 500),
                cacheElseLoad: .outcome(.stale, 1), cacheOnly: .outcome(.stale, 1),
                revalidate: .outcome(.miss, 2, status: 500))),
        // /slow/{ms}: max-age=5 and no validator, so "always revalidate" can only fetch in full.
        row("/slow/50", after: 2, .freshWithoutValidator),
        // Once stale without a validator it can only be fetched again under `protocol` and
        // `revalidate`; `cache-else-load` and `cache-only` still serve it stale.
        row(
            "/slow/50", after: 10, note: "stale",
            Columns(
                protocol: .outcome(.miss, 2), reloads: .outcome(.bypass, 2),
                cacheElseLoad: .outcome(.stale, 1), cacheOnly: .outcome(.stale, 1),
                revalidate: .outcome(.miss, 2))),
        // /large/{KB}: a 4 KiB body, max-age=60, ETag.
        row("/large/4", after: 5, .freshWithValidator),
        // /redirect/301/{N}: the 301 is cacheable for an hour but has no validator; its target is /max-age/N.
        row(
            "/redirect/301/60", after: 5, redirectTarget: "/max-age/60",
            Columns(
                protocol: .outcome(.hit, 1, target: 1), reloads: .outcome(.bypass, 2, target: 2),
                cacheElseLoad: .outcome(.hit, 1, target: 1), cacheOnly: .outcome(.hit, 1, target: 1),
                revalidate: .outcome(.revalidated, 2, target: 2))),
        // /redirect/302/{N}: a 302 without caching headers is not stored (§3, not heuristically
        // cacheable); only its target is.
        row(
            "/redirect/302/60", after: 5, redirectTarget: "/max-age/60",
            Columns(
                protocol: .outcome(.hit, 2, target: 1), reloads: .outcome(.bypass, 2, target: 2),
                cacheElseLoad: .outcome(.hit, 2, target: 1), cacheOnly: .notCached(1, target: 1),
                revalidate: .outcome(.revalidated, 2, target: 2))),
        // /status/{code}: a 404 without freshness or validator cannot be reused, so it is not stored.
        row("/status/404", after: 5, .notStored(status: 404)),
        // /items/{id}: a stale item whose version did not change is revalidated with a 304 …
        row("/items/1", after: 120, note: "unchanged", .staleWithValidator),
        // … and a fresh item another client changed is still served from the cache under
        // `protocol` (the cache cannot know), while `revalidate` finds the new version.
        row(
            "/items/1", after: 5, note: "changed by another client", changedElsewhere: true,
            Columns(
                protocol: .outcome(.hit, 2), reloads: .outcome(.bypass, 3),
                cacheElseLoad: .outcome(.hit, 2), cacheOnly: .outcome(.hit, 2),
                revalidate: .outcome(.modified, 3))),
        // /auth: a private cache may store a response to a request with Authorization (§3.5 is
        // about shared caches) …
        row("/auth", after: 5, headers: [.authorization: "Bearer x"], note: "with Authorization", .freshWithValidator),
        // … while the 401 without it carries no freshness and is not stored.
        row("/auth", after: 5, note: "without Authorization", .notStored(status: 401)),
        // /cookie: private, max-age=30, no validator.
        row("/cookie", after: 5, .freshWithoutValidator),
        // /expires/{N}: freshness from Expires − Date (§4.2.1), ETag.
        row("/expires/60", after: 5, .freshWithValidator),
        row("/expires/1", after: 5, .staleWithValidator),
    ].flatMap { $0 }

    @Test("second request under the policy", arguments: cases)
    func secondRequest(_ testCase: Case) async throws {
        try await Harness.start().run { harness in
            let first = try await harness.get(testCase.path, headers: testCase.firstHeaders)
            #expect(first.outcome == .miss, "the first request finds nothing stored")
            harness.clock.advance(by: testCase.advance)
            if testCase.changedElsewhere { try await Self.put(testCase.path, at: harness.origin) }

            let answer: Answer
            var reason = ""
            do {
                let second = try await harness.get(testCase.path, headers: testCase.secondHeaders, policy: testCase.policy)
                answer = .served(second.outcome, status: second.response.status.code)
                reason = second.reason
            } catch let error as CachingClientError {
                guard case .notCached = error else { throw error }
                answer = .notCached
            }
            #expect(answer == testCase.expected.answer, "reason: \(reason)")

            // A stale-while-revalidate refresh reaches the origin after the answer: wait for it.
            _ = await Self.eventually { harness.origin.requestCount(path: testCase.path) >= testCase.expected.requests }
            #expect(harness.origin.requestCount(path: testCase.path) == testCase.expected.requests)
            if let target = testCase.redirectTarget {
                #expect(harness.origin.requestCount(path: target) == testCase.expected.targetRequests)
            }
        }
    }

    @Test("the matrix has every policy against every endpoint kind")
    func matrixIsComplete() {
        for kind in EndpointKind.allCases {
            let prefix = String(kind.pattern.prefix { $0 != "{" })
            for policy in CachePolicy.allCases {
                #expect(
                    Self.cases.contains { $0.policy == policy && $0.path.hasPrefix(prefix) },
                    "no case for \(policy.commandLineName) \(kind.pattern)")
            }
        }
    }

    @Test("reload-all sends Cache-Control: no-cache and Pragma: no-cache to the origin")
    func reloadAllSendsNoCache() async throws {
        try await Harness.start().run { harness in
            _ = try await harness.get("/max-age/60", policy: .reloadIgnoringLocalAndRemoteCacheData)
            let sent = try #require(harness.origin.lastRequestHeaders(path: "/max-age/60"))
            #expect(sent.contains { $0.name.lowercased() == "cache-control" && $0.value == "no-cache" })
            #expect(sent.contains { $0.name.lowercased() == "pragma" && $0.value == "no-cache" })
        }
    }

    @Test("a per-request policy overrides the client's default")
    func perRequestOverridesDefault() async throws {
        try await Harness.start(policy: .reloadIgnoringLocalCacheData).run { harness in
            _ = try await harness.get("/max-age/60")
            #expect(try await harness.get("/max-age/60").outcome == .bypass)
            #expect(try await harness.get("/max-age/60", policy: .useProtocolCachePolicy).outcome == .hit)
        }
    }

    // MARK: Helpers

    /// Changes `path` the way another client would: a PUT straight to the origin, past the cache.
    static func put(_ path: String, at origin: DemoOrigin) async throws {
        let transport = AsyncHTTPClientTransport()
        let request = try #require(CachingClient.request(url: origin.baseURL + path, method: .put))
        let response = try await transport.send(request, body: Data("x".utf8), timeout: .seconds(5))
        try await transport.shutdown()
        #expect(response.response.status.code == 200)
    }

    /// Polls `condition` until it holds, for at most `seconds`.
    static func eventually(seconds: Double = 2, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
