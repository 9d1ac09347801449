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
            The disk store persists across invocations, so a second `get` of a fresh URL is a hit. \
            A stale-while-revalidate refresh started by the request is finished (at most 5 s) before exiting.
            Policies: \(CachePolicy.allCases.map(\.commandLineName).joined(separator: ", ")).
            """
    )

    @Argument(help: "An absolute http:// or https:// URL.")
    var url: String

    @Option(help: "The cache policy for this request.")
    var policy: String = CachePolicy.useProtocolCachePolicy.commandLineName

    @OptionGroup var store: StoreOptions

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, 'Name: value' (repeatable; -H as in curl).")
    var headers: [String] = []

    @Flag(help: "Print one JSON object with the outcome on stdout instead of the body.")
    var json = false

    /// Every option's value checked, before anything starts (ArgumentParser has looked for
    /// `--help` and unknown options by then).
    private func checkOptions() throws {
        _ = try request()
        _ = try cachePolicy()
        _ = try store.directoryOrUserCache()
        _ = try store.sharedTierConfiguration()
        _ = try store.tagField()
    }

    func run() async throws {
        StandardErrorLogging.start()
        try await reporting {
            try checkOptions()
            let result = try await SingleRequest.perform(
                try request(), policy: try cachePolicy(), store: try store.directoryOrUserCache(),
                sharedTier: try store.sharedTierConfiguration(), tagField: try store.tagField())
            if json {
                try Console.write(try GetReport(result).jsonLine())
            } else {
                try Console.write(result.body)
                Console.writeError(GetReport(result).text + "\n")
            }
        }
    }

    private func request() throws -> HTTPRequest {
        guard let request = CachingClient.request(url: url, headers: try HeaderOption.parse(headers)) else {
            throw ValidationError("\"\(url)\" is not an absolute http:// or https:// URL")
        }
        // The transport would refuse it too, as a failed request; typed here, it is a usage error.
        if let problem = AsyncHTTPClientTransport.portProblem(in: request.authority ?? "") {
            throw ValidationError("\"\(url)\": \(problem)")
        }
        let components = URLComponents(string: url)
        if components?.user != nil || components?.password != nil {
            throw ValidationError(
                "\"\(url)\" has a user name or password in it, which would not be sent: give them as -H 'Authorization: Basic …' instead")
        }
        // The cache keys a response by its URL: a Host field naming another host would store
        // one virtual host's response where another's is looked up. Compared as the key
        // normalises an authority (case, the scheme's default port).
        func keyed(_ authority: String) -> String? { CacheKey(method: "GET", uri: "\(request.scheme ?? "http")://\(authority)/")?.uri }
        if let host = HTTPField.Name("Host").flatMap({ request.headerFields[$0] }), keyed(host) != keyed(request.authority ?? "") {
            throw ValidationError(
                "-H 'Host: \(host)' names another host than the URL (\(request.authority ?? "")): the cache keys responses by URL, "
                    + "so put that host in the URL")
        }
        return request
    }

    private func cachePolicy() throws -> CachePolicy {
        guard let policy = CachePolicy(name: policy) else {
            throw ValidationError(
                "unknown policy \"\(policy)\"; use one of: \(CachePolicy.allCases.map(\.commandLineName).joined(separator: ", "))")
        }
        return policy
    }
}
