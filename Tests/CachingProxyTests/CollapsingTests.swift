@testable import CachingProxy
import DemoOrigin
import Foundation
import Testing

/// Request collapsing through the client's coalescer, seen from the outside.
@Suite("Proxy: request collapsing", .timeLimit(.minutes(2)))
struct CollapsingTests {
    @Test("200 concurrent clients asking for one cold URL make exactly one origin request")
    func twoHundredClients() async throws {
        try await ProxyHarness.start().run { harness in
            let port = harness.proxy.port
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        let exchange = try await RawHTTP.send(
                            "GET /slow/500 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port, timeout: .seconds(30))
                        return exchange.responses.first?.status ?? 0
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(harness.origin.requestCount(path: "/slow/500") == 1)
        }
    }
}
