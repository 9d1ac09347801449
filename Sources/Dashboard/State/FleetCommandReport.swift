public import CacheEvents

/// What the status line says after a command went to several instances: each instance's
/// result by name, the failures first, so a purge that did not reach every instance is seen.
///
/// ```swift
/// FleetCommandReport(command: .purgeAll, results: [
///     .init(name: "web", result: CommandResult(succeeded: true, message: "purged 3 entries")),
///     .init(name: "web#2", result: nil),                      // gone: not told
/// ]).message
/// // "purgeAll: 1 of 2 instances failed — web#2: gone (not told) · web: purged 3 entries"
/// ```
public struct FleetCommandReport: Sendable, Hashable {
    /// One instance's answer.
    public struct Answer: Sendable, Hashable {
        /// The instance's name.
        public var name: String
        /// Its result; `nil` when it was gone and so not told.
        public var result: CommandResult?

        /// An answer.
        public init(name: String, result: CommandResult?) {
            self.name = name
            self.result = result
        }

        /// Whether the instance did what was asked.
        public var succeeded: Bool { result?.succeeded ?? false }
    }

    /// The command sent.
    public var command: ClientCommand
    /// The answers, in instance order.
    public var results: [Answer]

    /// A report.
    public init(command: ClientCommand, results: [Answer]) {
        self.command = command
        self.results = results
    }

    /// Whether every instance told did what was asked (and none was gone).
    public var succeeded: Bool { !results.isEmpty && results.allSatisfy(\.succeeded) }

    /// The status line: `purgeAll on 3 instances — web: purged 5 entries · …`, or with the
    /// failures first: `purge: 1 of 3 instances failed — web#2: … · web: …`.
    public var message: String {
        guard !results.isEmpty else { return "\(command.name): no instance to send it to (none is connected)" }
        let failed = results.filter { !$0.succeeded }
        let ordered = failed + results.filter(\.succeeded)
        let parts = ordered.map { answer in "\(answer.name): \(answer.result?.message ?? "gone (not told)")" }
        let count = results.count
        let head = failed.isEmpty
            ? "\(command.name) on \(count) \(count == 1 ? "instance" : "instances")"
            : "\(command.name): \(failed.count) of \(count) \(count == 1 ? "instance" : "instances") failed"
        return head + " — " + parts.joined(separator: " · ")
    }
}
