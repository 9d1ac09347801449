import Foundation
import Testing

@testable import DemoOrigin

@Suite("Starting and stopping the origin", .timeLimit(.minutes(2)))
struct OriginLifecycleTests {
    @Test("port 0 binds a real ephemeral port and baseURL names it")
    func ephemeralPort() async throws {
        try await withOrigin { origin in
            #expect(origin.port > 0 && origin.port <= 65_535)
            #expect(origin.baseURL == "http://127.0.0.1:\(origin.port)")
            let response = try await LoopbackHTTP.get(origin.port, "/max-age/5")
            #expect(response.status == 200)
        }
    }

    @Test("after stop() connections are refused, and stop() can be called again")
    func stopRefusesConnections() async throws {
        let origin = try await DemoOrigin.start()
        let port = origin.port
        #expect(try await LoopbackHTTP.get(port, "/no-store").status == 200)
        try await origin.stop()
        await #expect(throws: LoopbackHTTP.Failure.connectionRefused) {
            try await LoopbackHTTP.get(port, "/no-store")
        }
        try await origin.stop()
    }

    @Test("stopping is quick even with a slow request in flight")
    func stopWithRequestInFlight() async throws {
        let origin = try await DemoOrigin.start()
        let port = origin.port
        let slow = Task { try await LoopbackHTTP.get(port, "/slow/20000") }
        // Stop once the request has reached the origin (its answer is then 20 s away).
        try await eventually("the slow request reached the origin") { origin.requestCount(path: "/slow/20000") == 1 }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { try await origin.stop() }
        #expect(elapsed < .seconds(10))
        // The connection was closed under the client: it gets no response at all.
        await #expect {
            try await slow.value
        } throws: { error in
            switch error as? LoopbackHTTP.Failure {
            case .malformedResponse(let message): message == "no end of header section in 0 bytes"
            case .socketError(let message): message.hasPrefix("read: ")  // closed with a reset
            default: false
            }
        }
    }

    @Test("a port already in use gives portInUse with a hint")
    func portInUse() async throws {
        try await withOrigin { origin in
            await #expect(throws: DemoOriginError.portInUse(host: "127.0.0.1", port: origin.port)) {
                _ = try await DemoOrigin.start(port: origin.port)
            }
            #expect(
                "\(DemoOriginError.portInUse(host: "127.0.0.1", port: 80))"
                    == "cannot listen on 127.0.0.1:80: the port is in use; pick another one, or port 0 for any free port")
        }
    }

    /// The message was a Swift type dump: "(SocketAddressError.UnknownHost: … (error -2) …)".
    @Test("a host that does not resolve is named in words")
    func unknownHost() async {
        let error = await #expect(throws: DemoOriginError.self) { try await DemoOrigin.start(host: "999.1.1.1", port: 0) }
        #expect(error?.description.hasPrefix("cannot listen on 999.1.1.1:0: unknown host 999.1.1.1: ") == true, "\(String(describing: error))")
        #expect(error?.description.contains("SocketAddressError") == false)
    }

    @Test("a host that is not on this machine gives addressUnavailable or cannotListen, never a crash")
    func foreignHost() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to this machine; binding sends nothing.
        await #expect {
            _ = try await DemoOrigin.start(host: "192.0.2.1", port: 0)
        } throws: { error in
            switch error as? DemoOriginError {
            case .addressUnavailable(let host, _), .cannotListen(let host, _, _): host == "192.0.2.1"
            default: false
            }
        }
    }

    @Test("an out-of-range port is rejected before binding")
    func invalidPort() async throws {
        await #expect(throws: DemoOriginError.invalidPort(70_000)) {
            _ = try await DemoOrigin.start(port: 70_000)
        }
        #expect("\(DemoOriginError.invalidPort(-1))" == "port -1 is out of range: use 0...65535 (0 picks a free port)")
    }

    @Test("malformed HTTP gets 400 from the server, not a crash")
    func malformedHTTP() async throws {
        try await withOrigin { origin in
            let raw = try await LoopbackHTTP.exchange(port: origin.port, bytes: Array("NOT HTTP AT ALL\r\n\r\n".utf8))
            #expect(String(decoding: raw, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
            #expect(try await LoopbackHTTP.get(origin.port, "/no-store").status == 200)
        }
    }

    @Test("two requests on one keep-alive connection are both answered")
    func keepAlive() async throws {
        try await withOrigin { origin in
            let request = "GET /max-age/1?a HTTP/1.1\r\nHost: x\r\n\r\nGET /no-store?b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let raw = String(decoding: try await LoopbackHTTP.exchange(port: origin.port, bytes: Array(request.utf8)), as: UTF8.self)
            #expect(raw.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(raw.contains("DemoOrigin /max-age/1?a") && raw.contains("DemoOrigin /no-store?b"))
        }
    }
}
