import DemoOrigin
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEndTests {
    /// `--metrics` as a user runs it: Prometheus's view of `cachescope proxy`, read with `curl`.
    @Suite("--metrics")
    struct MetricsOptionTests {
        @Test("proxy --no-ui --metrics: the banner names the URL; a scrape counts curl's miss and hit")
        func proxyMetrics() async throws {
            let origin = try await DemoOrigin.start()
            defer { Task { try? await origin.stop() } }
            let directory = try TemporaryDirectory()
            let started = try await HeadlessProxy.start(
                origin: origin, directory: directory, extra: ["--metrics", "127.0.0.1:0"], naming: ["metrics on "])
            let (child, proxy) = (started.child, started.url)
            let metrics = try #require(started.named["metrics on "])
            #expect(metrics.hasPrefix("http://127.0.0.1:") && metrics.hasSuffix("/metrics"), "\(metrics)")
            _ = try await Curl.body(proxy + "/max-age/60")
            _ = try await Curl.body(proxy + "/max-age/60")
            var page = ""
            for _ in 0..<500 where !page.contains("cachescope_requests_total{outcome=\"hit\"} 1") {  // bounded: 10 s
                page = try await Curl.body(metrics)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(page.contains("cachescope_requests_total{outcome=\"hit\"} 1"), "\(page)")
            #expect(page.contains("cachescope_requests_total{outcome=\"miss\"} 1"), "\(page)")
            #expect(page.contains("# TYPE cachescope_request_duration_seconds histogram"), "\(page)")

            kill(child.pid, SIGTERM)
            let (status, text) = await child.wait(timeout: .seconds(20))
            #expect(status == 143, "\(text)")
        }

        @Test(
            "a bad or remote --metrics address is a usage error naming the option",
            arguments: [
                (["proxy", "--origin", "http://127.0.0.1:1", "--metrics", "0.0.0.0:9464", "--no-ui"],
                 "--metrics 0.0.0.0 is not a loopback address: anyone who can reach it could read the cache's metrics; add --allow-remote"),
                (["demo", "--metrics", "9464", "--no-ui"], "--metrics '9464' has no port: use HOST:PORT"),
                (["demo", "--metrics", "127.0.0.1:99999", "--no-ui"], "--metrics '127.0.0.1:99999' has an invalid port"),
            ])
        func usageErrors(arguments: [String], message: String) async throws {
            let output = try await Binary.run(arguments)
            #expect(output.status == 64)
            #expect(output.stderr.hasPrefix("cachescope: \(arguments[0]): "), "\(output.stderr)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }

        @Test("demo --metrics on a port in use fails before the demo starts, saying so")
        func portInUse() async throws {
            let origin = try await DemoOrigin.start()  // holds a loopback port
            defer { Task { try? await origin.stop() } }
            let output = try await Binary.run(["demo", "--no-ui", "--duration", "5", "--metrics", "127.0.0.1:\(origin.port)"])
            #expect(output.status == 1, "\(output.stdout)")
            #expect(output.stderr == "cachescope: cannot serve metrics on 127.0.0.1:\(origin.port): the port is in use; choose another, or port 0 for any free one\n")
            #expect(!output.stdout.contains("Requests"), "the demo ran: \(output.stdout)")
        }
    }
}
