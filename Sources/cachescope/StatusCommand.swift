import ArgumentParser
import HTTPCaching

/// Prints what this build of CacheScope contains (the default until the dashboard lands).
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what this build of CacheScope contains."
    )

    func run() throws {
        print("""
        CacheScope \(CacheScopeVersion.current)
        Modules in this build:
          HTTPCaching  RFC 9111 rules: Cache-Control, freshness, age, Vary, validation, invalidation, policies
        Policies: \(CachePolicy.allCases.map(\.commandLineName).joined(separator: ", "))
        Try: cachescope --help
        """)
    }
}
