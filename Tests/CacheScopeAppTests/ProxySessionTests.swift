import CacheScopeApp
import CachingProxy
import DemoOrigin
import Foundation
import Testing
import TrafficFilter

/// What `cachescope proxy` checks and starts, without the executable.
@Suite("Proxy session: sizes, start-up failures", .timeLimit(.minutes(1)))
struct ProxySessionTests {
    @Test("sizes: bytes, K, M, G, T (powers of 1024)", arguments: [
        ("1048576", 1 << 20), ("512K", 512 << 10), ("64M", 64 << 20), ("2g", 2 << 30), ("8MiB", 8 << 20), ("100b", 100), ("1T", 1 << 40),
    ])
    func sizes(text: String, bytes: Int) throws {
        #expect(try ByteCount(parsing: text, option: "--memory-capacity").bytes == bytes)
    }

    @Test("the command line takes every size suffix a filter takes, with the same value")
    func sameSuffixesAsFilters() throws {
        for (suffix, factor) in UnitTable.sizes.factors {
            for spelling in [suffix, suffix.uppercased()] {
                #expect(try ByteCount(parsing: "3" + spelling, option: "--memory-capacity").bytes == 3 * Int(factor), "3\(spelling)")
                #expect(try Filter("size=3" + spelling).matches(SizedRow(filterSize: 3 * Int(factor))), "size=3\(spelling)")
            }
        }
    }

    @Test("a size that is not one is a usage error naming the option and the expected form", arguments: ["lots", "0", "-1", "1.5M", "", "M"])
    func badSizes(text: String) {
        #expect {
            try ByteCount(parsing: text, option: "--disk-capacity")
        } throws: { error in
            guard let failure = error as? CommandFailure else { return false }
            return failure.status == CommandFailure.usageStatus
                && failure.description == "cachescope: proxy: --disk-capacity must be a positive size such as 1048576, 512K, 64M or 2G, not '\(text)'"
        }
    }

    @Test("a size past 2⁶³ − 1 bytes is a usage error saying it is too large", arguments: ["99999999999999999999", "99999999999999999999G", "9000000T"])
    func tooLargeSizes(text: String) {
        #expect {
            try ByteCount(parsing: text, option: "--disk-capacity")
        } throws: { error in
            (error as? CommandFailure)?.description == "cachescope: proxy: --disk-capacity \(text) is too large: a size holds at most 9223372036854775807 bytes (just under 8388608T)"
        }
    }

    @Test("a port already in use fails the start with a message naming the address, and leaves an earlier recording at --record's path alone")
    func portInUse() async throws {
        let origin = try await DemoOrigin.start()
        let other = try await DemoOrigin.start()
        defer { Task { try? await origin.stop(); try? await other.stop() } }
        // Another server's port is taken (the origin's own would be refused as a loop).
        let configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: origin.baseURL), port: other.port)
        // The session sends the process's log to a file (the only test here that starts one:
        // swift-log is bootstrapped once per process).
        let scratch = try Scratch()
        let log = try OutputPath(scratch.path("proxy.log"), kind: .logFile, option: "--log")
        let earlier = #"{"format":"cachescope-session","version":1,"startedAt":"2026-11-20T09:14:03.512Z","producer":"an earlier run"}"# + "\n"
        let recordPath = try scratch.file("session.jsonl", earlier)
        let options = ProxySession.Options(
            proxy: configuration, cacheDirectory: nil, theme: try ThemeChoice(nil),
            record: try OutputPath(recordPath, kind: .sessionLog, option: "--record"), publish: false, log: log)
        await #expect {
            _ = try await ProxySession.start(options, headless: true)
        } throws: { error in
            guard case .bindFailed(let host, let port, _) = error as? CachingProxyError else { return false }
            return host == "127.0.0.1" && port == other.port
                && "\(error)" == "cannot listen on 127.0.0.1:\(other.port): address already in use"
        }
        #expect(try String(contentsOfFile: recordPath, encoding: .utf8) == earlier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("")).sorted() == ["proxy.log", "session.jsonl"], "no temporary log left")
    }
}

/// A row with a size alone, for the filter.
private struct SizedRow: FilterSubject {
    var filterSize: Int?
}
