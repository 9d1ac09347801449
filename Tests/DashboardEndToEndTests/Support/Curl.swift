import Testing

/// `curl` as the end-to-end tests run it, with a bounded wait; a failure names the URL.
enum Curl {
    /// `curl -s -D - -o /dev/null URL`: the response head.
    static func head(_ url: String) async throws -> String {
        try await run(["-s", "-D", "-", "-o", "/dev/null", url], url: url)
    }

    /// `curl -s URL`: the response body.
    static func body(_ url: String) async throws -> String {
        try await run(["-s", url], url: url)
    }

    private static func run(_ arguments: [String], url: String) async throws -> String {
        let child = try Spawn.start(["curl"] + arguments)
        let (status, output) = await child.wait(timeout: .seconds(30))
        try #require(status == 0, "curl \(url) failed with status \(status): \(output)")
        return output
    }
}
