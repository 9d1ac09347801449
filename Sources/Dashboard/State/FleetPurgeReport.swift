public import CacheEvents

/// What the status line says after a purge of several keys went to a fleet, or to the
/// dashboard's own cache (`d` on marks, `:purge FILTER`): one line for the whole purge — how many entries went from how many
/// instances — with the failures first, by instance, so a key that was not purged somewhere is
/// seen.
///
/// ```swift
/// FleetPurgeReport(answers: [
///     .init(key: "GET …/a", name: "web", entries: 2, result: CommandResult(succeeded: true, message: "purged 2 entries")),
///     .init(key: "GET …/a", name: "api", entries: 1, result: nil),       // gone: not told
/// ]).message
/// // "purge: 1 of 2 failed — api: gone (not told) (GET …/a) — purged 2 entries on 1 instance (1 key)"
/// ```
public struct FleetPurgeReport: Sendable, Hashable {
    /// One key's purge in one instance.
    public struct Answer: Sendable, Hashable {
        /// The primary key purged.
        public var key: String
        /// The instance's name; empty for the dashboard's own cache (a live session, not a fleet).
        public var name: String
        /// The entries the preview counted for the key in that instance.
        public var entries: Int
        /// Its result; `nil` when the instance was gone and so not told.
        public var result: CommandResult?

        /// An answer.
        public init(key: String, name: String, entries: Int, result: CommandResult?) {
            self.key = key
            self.name = name
            self.entries = entries
            self.result = result
        }

        /// Whether the instance purged the key.
        public var succeeded: Bool { result?.succeeded ?? false }
    }

    /// The answers, in the order the purges were listed.
    public var answers: [Answer]

    /// A report.
    public init(answers: [Answer]) {
        self.answers = answers
    }

    /// Whether every key was purged in every instance told (and none was gone).
    public var succeeded: Bool { !answers.isEmpty && answers.allSatisfy(\.succeeded) }

    /// The status line: `purged 12 entries on 3 instances (5 keys)`, or with the failures
    /// first, by instance: `purge: 2 of 8 failed — web#2: gone (not told) (2 keys) · … —
    /// purged 9 entries on 2 instances (4 keys)`.
    public var message: String {
        guard !answers.isEmpty else { return "purge: nothing to send (no instance stores those keys)" }
        let done = answers.filter(\.succeeded)
        let entries = done.reduce(0) { $0 + $1.entries }
        let instances = Set(done.map(\.name)).count
        let keys = Set(done.map(\.key)).count
        // The dashboard's own cache has no name, and no instances to count.
        let local = answers.allSatisfy(\.name.isEmpty)
        let purged = "purged \(entries) \(entries == 1 ? "entry" : "entries")"
            + (local ? "" : " on \(instances) \(instances == 1 ? "instance" : "instances")") + " (\(keys) \(keys == 1 ? "key" : "keys"))"
        let failed = answers.filter { !$0.succeeded }
        guard !failed.isEmpty else { return purged }
        var names: [String] = []
        var byName: [String: [Answer]] = [:]
        for answer in failed {
            if byName[answer.name] == nil { names.append(answer.name) }
            byName[answer.name, default: []].append(answer)
        }
        let parts = names.map { name -> String in
            let failures = byName[name] ?? []
            var reasons: [String] = []
            for answer in failures {
                let reason = answer.result?.message ?? "gone (not told)"
                if !reasons.contains(reason) { reasons.append(reason) }
            }
            let which = failures.count == 1 ? failures[0].key : "\(failures.count) keys"
            return (name.isEmpty ? "" : "\(name): ") + "\(reasons.joined(separator: "; ")) (\(which))"
        }
        return "purge: \(failed.count) of \(answers.count) failed — " + parts.joined(separator: " · ") + " — " + purged
    }
}
