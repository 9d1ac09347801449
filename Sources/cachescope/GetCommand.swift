import ArgumentParser
import CacheScopeApp
import CachingClient
import Foundation
import HTTPCaching
import HTTPTypes

/// `cachescope get URL`: one request through the cache, like curl through the cache.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Send one request through the cache: the body to stdout, the outcome to stderr.",
        discussion: """
            The disk store persists across invocations, so a second `get` of a fresh URL is a hit.
            Policies: \(CachePolicy.allCases.map(\.commandLineName).joined(separator: ", ")).
            """
    )

    @Argument(help: "An absolute http:// or https:// URL.")
    var url: String

    @Option(help: "The cache policy for this request.")
    var policy: String = CachePolicy.useProtocolCachePolicy.commandLineName

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("header"), help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Flag(help: "Print one JSON object with the outcome on stdout instead of the body.")
    var json = false

    func validate() throws {
        guard CachingClient.request(url: url) != nil else {
            throw ValidationError("\"\(url)\" is not an absolute http:// or https:// URL")
        }
        guard CachePolicy(name: policy) != nil else {
            throw ValidationError(
                "unknown policy \"\(policy)\"; use one of: \(CachePolicy.allCases.map(\.commandLineName).joined(separator: ", "))")
        }
        _ = try HeaderOption.parse(headers)
    }

    func run() async throws {
        let client = try await CachingClient(configuration: store.clientConfiguration())
        let request = CachingClient.request(url: url, headers: try HeaderOption.parse(headers))!
        let result: ClientResponse
        do {
            result = try await client.data(for: request, policy: CachePolicy(name: policy))
        } catch {
            try? await client.shutdown()
            FileHandle.standardError.write(Data("cachescope: \(error)\n".utf8))
            throw ExitCode(1)
        }
        try await client.shutdown()
        if json {
            FileHandle.standardOutput.write(try GetReport(result).jsonLine())
        } else {
            FileHandle.standardOutput.write(result.body)
            FileHandle.standardError.write(Data((GetReport(result).text + "\n").utf8))
        }
    }
}
