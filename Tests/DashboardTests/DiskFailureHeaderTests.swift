import CacheEvents
import CacheStore
@testable import Dashboard
import TerminalUI
import Testing

/// A disk tier that failed (its directory deleted, the disk gone) keeps the entries of its
/// namespaces in memory only: the header says so instead of showing a healthy disk gauge.
@Suite("The header when the disk failed")
struct DiskFailureHeaderTests {
    private static func state(degraded: [String]) -> DashboardState {
        var state = DashboardState(mode: .live)
        let stats = StoreStats(
            memoryUsed: 100, memoryCapacity: 1_000, diskUsed: 500, diskCapacity: 10_000, entryCount: 3, degradedNamespaces: degraded)
        state.apply(CacheEvent(seq: 1, time: 1, requestID: nil, kind: .storeStats(stats)))
        return state
    }

    private static func header(degraded: [String], columns: Int) throws -> String {
        let text = try render(state(degraded: degraded), size: TerminalSize(columns: columns, rows: 30), now: 2).text
        return text.split(separator: "\n").prefix(5).joined(separator: "\n")
    }

    @Test("a failed disk is said in the header, naming its namespaces when there is room; a healthy one says nothing")
    func diskFailed() throws {
        let wide = try Self.header(degraded: ["default"], columns: 160)
        #expect(wide.contains("! disk failed (default): entries kept in memory only"), "\(wide)")
        let narrow = try Self.header(degraded: ["default"], columns: 80)
        #expect(narrow.contains("disk failed"), "\(narrow)")
        for columns in [160, 80] {
            let healthy = try Self.header(degraded: [], columns: columns)
            #expect(!healthy.contains("disk failed"), "\(healthy)")
        }
    }
}
