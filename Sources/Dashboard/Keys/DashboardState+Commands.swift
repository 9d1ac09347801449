import CacheEvents
import SessionLog
import TerminalUI

/// Purge, refresh, reload and marks: keys that become ``ClientCommand``s.
extension DashboardState {
    /// What the status line says when a replay is asked to reach the cache.
    static let replayCannotSend =
        "a replay cannot reach an origin: purge, refresh and reload work in a live or attached dashboard"

    /// What the status line says when a read-only dashboard is asked to change the cache.
    static let readOnlyRefusal = "read-only (--read-only): purge, refresh and reload are disabled"

    /// Sends `command` (or explains why it cannot be sent): in a fleet, to `instance` when
    /// the command is about one of its entries, else to every connected instance.
    mutating func command(_ command: ClientCommand, describing text: String, instance: UInt16? = nil) -> [DashboardEffect] {
        if let refusal = commandRefusal() { return refusal }
        pinEntryRow()
        setStatus(text)
        if let instance, interface.instances.isFleet {
            let name = interface.instances[instance]?.name ?? "#\(instance)"
            setStatus("\(text) (\(name))")
            return [.sendTo(command, instances: [instance]), .redraw]
        }
        return [.send(command), .redraw]
    }

    /// In a replay or a read-only dashboard, says on the status line that commands cannot be
    /// sent and returns the effects; `nil` when commands can be sent.
    mutating func commandRefusal() -> [DashboardEffect]? {
        if interface.readOnly {
            setStatus(Self.readOnlyRefusal, kind: .failure)
            return [.redraw]
        }
        guard !interface.mode.canSendCommands else { return nil }
        setStatus(Self.replayCannotSend, kind: .failure)
        return [.redraw]
    }

    /// ``commandRefusal()`` for a purge by selection or filter, which rewound is refused
    /// too, saying why: its preview and keys would be the past's, the purge the present
    /// store's.
    mutating func purgeRefusal() -> [DashboardEffect]? {
        if let refused = commandRefusal() { return refused }
        guard let instant = rewoundTo else { return nil }
        setStatus("rewound to \(Format.clock(instant)): a purge by selection or filter would name the past's entries; F follows live first", kind: .failure)
        return [.redraw]
    }

    /// The key (and variant) the selection stands for.
    private var selectedKey: (key: String, variant: String?, instance: UInt16)? {
        switch selectedTarget {
        case .request(let serial):
            guard let record = shown.requests[serial: serial] else { return nil }
            return record.cacheKey.isEmpty ? nil : (record.cacheKey, nil, record.instance)
        case .entry(let id):
            return (id.ref.key, id.ref.variant.isEmpty ? nil : id.ref.variant, id.instance)
        case nil:
            return nil
        }
    }

    private mutating func explainNoKey() -> [DashboardEffect] {
        if interface.view == .stats, interface.overlay == nil {
            setStatus("select an entry or a request first (1 Requests, 2 Entries)", kind: .failure)
        } else if case .request = selectedTarget {
            setStatus("this request has no cache key (its method is not cached)", kind: .failure)
        } else {
            setStatus("nothing selected", kind: .failure)
        }
        return [.redraw]
    }

    /// `d`: asks before purging the marked keys (with a preview), or purges the selected one.
    mutating func purgeSelected() -> [DashboardEffect] {
        if let refusal = purgeRefusal() { return refusal }
        // The previews pin the selection's row here; a single key is pinned by `command`.
        if !interface.marks.isEmpty {
            let count = interface.marks.count
            pinEntryRow()
            return askPurge(PurgePreview(
                targets: interface.marks, table: shown.entries, now: now,
                selection: "\(Format.count(count)) marked \(count == 1 ? "key" : "keys")"))
        }
        guard let selected = selectedKey else { return explainNoKey() }
        // A purge takes a key with every one of its Vary variants: when the row is one of
        // several, the preview says so and asks first.
        let variants = shown.entries.all.count { $0.ref.key == selected.key && $0.instance == selected.instance }
        if variants > 1 {
            pinEntryRow()
            return askPurge(PurgePreview(
                targets: [PurgeTarget(key: selected.key, instance: selected.instance)], table: shown.entries, now: now,
                selection: "the \(variants) Vary variants of \(selected.key)"))
        }
        return command(.purge(key: selected.key), describing: "purging \(selected.key)…", instance: selected.instance)
    }

    /// `D`: asks before purging everything.
    mutating func askPurgeAll() -> [DashboardEffect] {
        if let refusal = commandRefusal() { return refusal }
        interface.overlay = .confirmPurgeAll
        setStatus("purge every stored entry? y/n")
        return [.redraw]
    }

    /// The answer to "purge everything?".
    mutating func answerPurgeAll(_ key: Key) -> [DashboardEffect] {
        answer(key, question: "purge every stored entry", cancelled: "purge all cancelled") { state in
            state.command(.purgeAll, describing: "purging everything…")
        }
    }

    /// The answer to a y/n question: `y` closes it and does `yes`; `n`, `q` and `Esc` close it
    /// saying `cancelled`; `Q` quits; any other key asks `question` again.
    mutating func answer(
        _ key: Key, question: String, cancelled: String, yes: (inout DashboardState) -> [DashboardEffect]
    ) -> [DashboardEffect] {
        switch key {
        case .character("y"), .character("Y"):
            interface.overlay = nil
            return yes(&self)
        case .character("n"), .character("N"), .character("q"), .escape:
            interface.overlay = nil
            setStatus(cancelled)
            return [.redraw]
        case .character("Q"):
            return [.quit]
        default:
            setStatus("\(question)? press y to purge, n to cancel")
            return [.redraw]
        }
    }

    /// `r` (conditional) and `R` (unconditional).
    mutating func refreshSelected(conditional: Bool) -> [DashboardEffect] {
        if let refusal = commandRefusal() { return refusal }
        guard let selected = selectedKey else { return explainNoKey() }
        return conditional
            ? command(
                .refresh(key: selected.key, variant: selected.variant), describing: "refreshing \(selected.key)…",
                instance: selected.instance)
            : command(
                .reload(key: selected.key, variant: selected.variant), describing: "reloading \(selected.key)…",
                instance: selected.instance)
    }

    /// What the status line says when `m` or `M` is pressed where nothing can be purged.
    static let marksReadOnly = "read-only (--read-only): marks choose what d purges, and purging is disabled"
    /// The same in a replay.
    static let marksInReplay = "a replay cannot purge: marks choose what d purges in a live or attached dashboard"

    /// Whether marking is refused — marks are for purging: where `d` is refused (a replay,
    /// --read-only), so are they — saying why on the status line.
    mutating func markRefused() -> Bool {
        if interface.readOnly {
            setStatus(Self.marksReadOnly, kind: .failure)
            return true
        }
        guard !interface.mode.canSendCommands else { return false }
        setStatus(Self.marksInReplay, kind: .failure)
        return true
    }

    /// `m`: marks or unmarks the selected row's key (in the selected row's instance).
    mutating func toggleMark() {
        if markRefused() { return }
        guard let selected = selectedKey else {
            _ = explainNoKey()
            return
        }
        let target = PurgeTarget(key: selected.key, instance: selected.instance)
        if interface.marks.remove(target) == nil { interface.marks.insert(target) }
        let count = interface.marks.count
        setStatus(count == 0 ? "no marks" : "\(count) marked: d purges \(count == 1 ? "it" : "them"), U clears")
        if interface.view == .entries { move(by: 1) }
    }

    /// `U`.
    mutating func clearMarks() {
        interface.marks = []
        setStatus("marks cleared")
    }
}
