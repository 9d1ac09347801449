import HTTPTypes
import CacheEvents
import HTTPCaching
import Testing
import TerminalUI
@testable import Dashboard

/// The cache's own stale-while-revalidate refreshes, as the dashboard shows them: marked `bg`
/// in the Requests view from their first event, and counted apart from the app's requests.
@Suite("Background refreshes in the dashboard")
struct BackgroundRefreshTests {
    static let url = SampleSession.origin + "/swr?id=9"

    /// The app's request served stale (id 1), and the refresh it started (id 2) up to `stage`.
    static func state(refreshFinished: Bool) -> DashboardState {
        var state = DashboardState(mode: .live)
        var seq: UInt64 = 0
        func add(_ time: Double, _ id: UInt64, _ kind: CacheEventKind) {
            seq += 1
            state.apply(CacheEvent(seq: seq, time: time, requestID: id, kind: kind))
        }
        add(1, 1, .requestStarted(RequestStarted(method: "GET", url: url, cacheKey: "GET " + url, policy: "protocol", headers: [:])))
        add(1, 1, .served(Served(source: .cache, status: 200, bytes: 100, outcome: .stale, reason: "stale-while-revalidate")))
        add(1, 1, .requestFinished(RequestFinished(
            status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 100, outcome: .stale, reason: "stale-while-revalidate")))
        add(1, 2, .requestStarted(RequestStarted(method: "GET", url: url, cacheKey: "GET " + url, policy: "background", headers: [:])))
        if refreshFinished {
            add(1.1, 2, .revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: nil, background: true)))
            add(1.2, 2, .requestFinished(RequestFinished(
                status: 200, latency: 0.2, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .revalidated, reason: "304",
                background: true)))
        }
        return state
    }

    static func record(_ id: UInt64, in state: DashboardState) throws -> RequestRecord {
        let requests = state.traffic.requests
        let newest = try #require(requests.newestSerial)
        let serial = try #require((0...newest).first { requests[serial: $0]?.id == id })
        return try #require(requests[serial: serial])
    }

    @Test("A refresh is marked bg from its start, and the app's request is not", arguments: [false, true])
    func markedFromStart(refreshFinished: Bool) throws {
        let state = Self.state(refreshFinished: refreshFinished)
        let refresh = try Self.record(2, in: state)
        let app = try Self.record(1, in: state)
        #expect(refresh.isBackground)
        #expect(!app.isBackground)
        #expect(RequestsView.outcomeSpans(refresh).first?.text == RequestsView.backgroundTag)
        #expect(RequestsView.outcomeSpans(app).first?.text != RequestsView.backgroundTag)
    }

    @Test("The header counts refreshes apart from requests, and only once there are any")
    func headerCount() throws {
        let size = TerminalSize(columns: 160, rows: 40)
        let finished = try render(Self.state(refreshFinished: true), size: size, now: 2).text
        let headerLines = finished.split(separator: "\n").prefix(4).joined(separator: "\n")
        #expect(headerLines.contains("1 requests"), "the refresh is not one of the app's requests:\n\(headerLines)")
        #expect(headerLines.contains("background 1"), "\(headerLines)")
        let running = try render(Self.state(refreshFinished: false), size: size, now: 2).text
        #expect(!running.split(separator: "\n").prefix(4).joined().contains("background"), "nothing counted before it finishes")
    }

    @Test("The Requests view shows the bg tag on the refresh's row")
    func requestsRow() throws {
        let grid = try render(Self.state(refreshFinished: true), size: TerminalSize(columns: 160, rows: 40), now: 2).text
        let rows = grid.split(separator: "\n").filter { $0.contains("/swr?id=9") }
        #expect(rows.count == 2)
        #expect(rows.filter { $0.contains(" bg ↻ REVALIDATED") }.count == 1, "\(rows)")
    }
}
