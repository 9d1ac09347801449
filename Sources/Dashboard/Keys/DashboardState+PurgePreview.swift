import CacheEvents
import TerminalUI
import TrafficFilter

/// Marks and purges with a preview: `M` marks every listed row, `d` on marks and
/// `:purge FILTER` show "N entries, X MB, Y of them hit in the last minute" and ask y/n; `y`
/// sends exactly the keys the preview counted.
extension DashboardState {
    /// `M`: marks the keys of every row the view lists (every row the filter matches), each in
    /// its row's instance.
    mutating func markMatching() {
        if markRefused() { return }
        let keys: [PurgeTarget]
        switch interface.view {
        case .requests:
            let rows = RequestRows(log: shown.requests, filter: interface.filter)
            keys = (0..<rows.count).compactMap { index in
                shown.requests[serial: rows.serial(at: index)].flatMap { record in
                    record.cacheKey.isEmpty ? nil : PurgeTarget(key: record.cacheKey, instance: record.instance)
                }
            }
        case .entries:
            keys = EntryWindow(table: shown.entries, interface: interface, rows: 1, now: now).rows
                .map { PurgeTarget(key: $0.ref.key, instance: $0.instance) }
        case .stats:
            setStatus("M marks the rows of the Requests (1) and Entries (2) views")
            return
        }
        if let filter = interface.filter, filter.gaveUp {
            setStatus("nothing marked: \(filter.gaveUpMessage)", kind: .failure)
            return
        }
        interface.marks.formUnion(keys)
        let count = interface.marks.count
        let scope = interface.filter.map { "every row matching \($0.text)" } ?? "every row"
        setStatus("\(count) marked (\(scope)): d purges them after a preview, U clears")
    }

    /// `:`: the command line, ready for `purge FILTER`.
    mutating func startPurgePrompt() {
        if purgeRefusal() != nil { return }
        guard interface.overlay == nil else {
            setStatus("close this pane first (Esc), then : opens the command line")
            return
        }
        interface.prompt = FilterPrompt(.purge, text: FilterPrompt.purgeCommand)
        interface.status = nil
    }

    /// `:purge FILTER`: the preview of every key with an entry that `filter` matches now;
    /// `:purge tag:NAME` alone: the preview of the entries tagged NAME, purged by tag.
    mutating func askPurge(matching filter: Filter?) -> [DashboardEffect] {
        guard let filter else {
            setStatus("purge needs a filter: :purge tier:disk & size>1MB, :purge tag:NAME (D purges everything)", kind: .failure)
            return [.redraw]
        }
        if let tag = filter.onlyTag { return askPurge(PurgePreview(tag: tag, table: shown.entries, now: now)) }
        let targets = shown.entries.all.filter { filter.matches(EntryRow($0, now: now)) }
            .map { PurgeTarget(key: $0.ref.key, instance: $0.instance) }
        // Which entries a given-up pattern takes is unknown (`!` would take the undecided).
        guard !filter.gaveUp else {
            setStatus("nothing to purge: \(filter.gaveUpMessage)", kind: .failure)
            return [.redraw]
        }
        return askPurge(PurgePreview(targets: Set(targets), table: shown.entries, now: now, selection: "purge \(filter.text)"))
    }

    /// Shows `preview` and asks y/n; nothing to purge is said on the status line instead.
    mutating func askPurge(_ preview: PurgePreview) -> [DashboardEffect] {
        if let refusal = purgeRefusal() { return refusal }
        guard preview.entries > 0 else {
            setStatus("nothing stored to purge (\(preview.selection))", kind: .failure)
            return [.redraw]
        }
        interface.overlay = .confirmPurge(preview)
        setStatus("purge \(preview.summary)? y/n")
        return [.redraw]
    }

    /// The answer to a purge preview: `y` sends one purge per key the preview counted (for
    /// several keys, as one ``DashboardEffect/purgeEach(_:)`` whose results make one report).
    mutating func answerPurge(_ key: Key, preview: PurgePreview) -> [DashboardEffect] {
        answer(key, question: "purge \(preview.summary)", cancelled: "purge cancelled") { state in
            if let refusal = state.commandRefusal() { return refusal }
            state.interface.marks.subtract(preview.targets)
            state.setStatus("purging \(preview.summary)…")
            guard state.interface.instances.isFleet else {
                // Several keys: one report for them all, rather than each key's result in turn.
                if preview.tag == nil, preview.commands.count > 1 { return [.purgeEach(preview.entriesByTarget), .redraw] }
                return preview.commands.map { .send($0) } + [.redraw]
            }
            // A purge by tag: one purgeTag to each instance that holds a tagged entry.
            if let tag = preview.tag { return [.sendTo(.purgeTag(tag: tag), instances: preview.instances), .redraw] }
            // Each instance is told only the keys it stores (and the filter matched there), and
            // the status line gets one report for every key and instance.
            return [.purgeEach(preview.entriesByTarget), .redraw]
        }
    }
}
