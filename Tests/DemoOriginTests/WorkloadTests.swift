import Foundation
import Testing

@testable import DemoOrigin

@Suite("Workload: which requests", .timeLimit(.minutes(2)))
struct WorkloadTests {
    static let base = "http://127.0.0.1:8080"

    @Test("the same seed gives the same sequence; another seed another")
    func deterministic() throws {
        let a = Array(try Workload(baseURL: Self.base).prefix(2_000))
        let b = Array(try Workload(baseURL: Self.base).prefix(2_000))
        var other = WorkloadConfiguration.demo
        other.seed = 43
        let c = Array(try Workload(baseURL: Self.base, configuration: other).prefix(2_000))
        #expect(a == b)
        #expect(a != c)
    }

    @Test("the demo mix is lively: every endpoint kind appears, hot URLs repeat, POSTs happen")
    func demoMix() throws {
        let requests = Array(try Workload(baseURL: Self.base).prefix(5_000))
        #expect(Set(requests.map(\.kind)) == Set(EndpointKind.allCases))
        #expect(requests.allSatisfy { $0.url.hasPrefix(Self.base + "/") })
        let byURL = Dictionary(grouping: requests, by: \.url).mapValues(\.count)
        #expect(try #require(byURL.values.max()) > 20, "popular URLs repeat, so caches get hits")
        #expect(byURL.count > 200, "a long tail of distinct URLs")
        let items = requests.filter { $0.kind == .items }
        let postShare = Double(items.count { $0.method == "POST" }) / Double(items.count)
        #expect(postShare > 0.05 && postShare < 0.3)
        #expect(requests.filter { $0.kind != .items }.allSatisfy { $0.method == "GET" })
    }

    @Test("/vary/lang requests rotate the configured languages; /auth carries credentials")
    func headers() throws {
        var configuration = WorkloadConfiguration.demo
        configuration.mix = [.varyLanguage: 1, .auth: 1]
        configuration.acceptLanguages = ["en", "pt-BR"]
        let requests = Array(try Workload(baseURL: Self.base, configuration: configuration).prefix(400))
        let languages = Set(requests.filter { $0.kind == .varyLanguage }.flatMap(\.headers).map(\.value))
        #expect(languages == ["en", "pt-BR"])
        let auth = requests.filter { $0.kind == .auth }
        #expect(auth.count > 100, "about half of 400 requests are /auth, got \(auth.count)")
        #expect(auth.allSatisfy { $0.headers.first?.name == "Authorization" && $0.headers.first?.value.isEmpty == false })
        let vary = requests.filter { $0.kind == .varyLanguage }
        #expect(vary.count > 100, "about half of 400 requests are /vary/lang, got \(vary.count)")
        #expect(vary.allSatisfy { $0.headers.first?.name == "Accept-Language" })
    }

    @Test("kinds with weight 0 never appear; weights set the proportions")
    func weights() throws {
        var configuration = WorkloadConfiguration.demo
        configuration.mix = [.maxAge: 3, .noStore: 1, .slow: 0]
        let requests = Array(try Workload(baseURL: Self.base, configuration: configuration).prefix(8_000))
        #expect(Set(requests.map(\.kind)) == [.maxAge, .noStore])
        let share = Double(requests.count { $0.kind == .maxAge }) / Double(requests.count)
        #expect(abs(share - 0.75) < 0.03)
    }

    @Test("every generated request is served by the origin with a non-400 answer")
    func targetsAreValid() async throws {
        try await withOrigin { origin in
            var configuration = WorkloadConfiguration.demo
            configuration.mix[.slow] = 0  // keep the test fast
            configuration.universeSize = 5
            let workload = try Workload(baseURL: origin.baseURL, configuration: configuration)
            for request in workload.prefix(60) {
                let target = String(request.url.dropFirst(origin.baseURL.count))
                let response = try await LoopbackHTTP.send(
                    request.method, port: origin.port, target: target, headers: request.headers.map { ($0.name, $0.value) })
                #expect(![400, 404, 405].contains(response.status), "\(request)")
            }
        }
    }

    @Test("invalid configurations are rejected naming the setting")
    func validation() {
        func expectRejected(_ expected: WorkloadError, _ change: (inout WorkloadConfiguration) -> Void) {
            var configuration = WorkloadConfiguration.demo
            change(&configuration)
            #expect(throws: expected) { try Workload(baseURL: Self.base, configuration: configuration) }
        }
        expectRejected(.invalidRate(0)) { $0.requestsPerSecond = 0 }
        expectRejected(.invalidConcurrency(0)) { $0.concurrency = 0 }
        expectRejected(.invalidUniverseSize(0)) { $0.universeSize = 0 }
        expectRejected(.invalidZipfExponent(11)) { $0.zipfExponent = 11 }
        expectRejected(.invalidWriteShare(1.5)) { $0.itemWriteShare = 1.5 }
        expectRejected(.invalidWeight(.maxAge, -1)) { $0.mix[.maxAge] = -1 }
        expectRejected(.emptyMix) { $0.mix = [:] }
        expectRejected(.emptyAcceptLanguages) { $0.acceptLanguages = [] }
        expectRejected(.invalidDuration(.zero)) { $0.duration = .zero }
        #expect(throws: WorkloadError.invalidBaseURL("127.0.0.1:80")) { try Workload(baseURL: "127.0.0.1:80") }
        #expect(WorkloadError.emptyMix.description.contains("give at least one endpoint kind a weight above 0"))
    }
}
