import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import TrafficFilter

/// Drill-down: `c` moves the drill-down column (marked `+` in the table's header), `+` adds
/// the selected row's value in it to the filter — `host:…` for a URL or key, `method:…`,
/// `outcome:…`, `status:…`, `tier:…`.
extension DashboardState {
    /// The columns of each view that have a value to filter by, in `c`'s order.
    static let drillColumns: [DashboardView: [String]] = [
        .requests: ["url", "method", "outcome", "status"],
        .entries: ["key", "tier"],
    ]

    /// The current view's drill-down columns: with several instances, `instance` too.
    private var viewDrillColumns: [String]? {
        guard let columns = Self.drillColumns[interface.view] else { return nil }
        return interface.instances.isFleet ? columns + [InstanceColumn.id] : columns
    }

    /// The drill-down column of the current view (its first until `c` moves it).
    var drillColumnID: String? {
        guard let columns = viewDrillColumns, !columns.isEmpty else { return nil }
        return columns[(interface.drillColumn ?? 0) % columns.count]
    }

    /// `c`.
    mutating func nextDrillColumn() {
        guard let columns = viewDrillColumns, !columns.isEmpty else {
            setStatus("drill-down works in the Requests (1) and Entries (2) views")
            return
        }
        interface.drillColumn = interface.drillColumn.map { ($0 + 1) % columns.count } ?? 0
        setStatus("drill-down column: \(drillColumnID ?? "") (+ adds the selected row's value to the filter; c moves on)")
    }

    /// `+`.
    mutating func drillDown() {
        guard interface.overlay == nil || selectedTarget != nil, let target = selectedTarget, let column = drillColumnID,
            let term = drillTerm(target, column: column)
        else {
            setStatus("select a row with a value in the drill-down column first (c chooses the column)", kind: .failure)
            return
        }
        if let current = interface.filter?.text, !current.contains("|"),
            current.split(separator: "&").contains(where: { $0.trimmingCharacters(in: .whitespaces) == term })
        {
            // Pressed again on the same value: the filter already holds it.
            setStatus("the filter already has \(term)")
            return
        }
        let text = interface.filter.map { $0.text.contains("|") ? "(\($0.text)) & \(term)" : "\($0.text) & \(term)" } ?? term
        do {
            apply(try Filter(text))
            interface.history.add(text)
        } catch {
            setStatus("cannot add \(term) to the filter: \(error)", kind: .failure)
        }
    }

    /// The predicate for the selected row's value in `column`.
    func drillTerm(_ target: DetailTarget, column: String) -> String? {
        switch target {
        case .request(let serial):
            guard let record = shown.requests[serial: serial] else { return nil }
            switch column {
            case "url": return URLHost.of(record.url).map { "host=" + Self.quoted(String($0)) }
            case "method": return "method:" + Self.quoted(record.method)
            case "outcome": return record.outcome.map { "outcome:\($0.rawValue)" }
            case "status": return record.status > 0 ? "status:\(record.status)" : nil
            case InstanceColumn.id: return record.instanceName.isEmpty ? nil : "instance=" + Self.quoted(record.instanceName)
            default: return nil
            }
        case .entry(let id):
            guard let entry = shown.entries[id] else { return nil }
            switch column {
            case "key": return EntryRow(entry, now: now).filterHost.map { "host=" + Self.quoted(String($0)) }
            case "tier": return "tier:\(entry.tier.rawValue)"
            case InstanceColumn.id: return entry.instanceName.isEmpty ? nil : "instance=" + Self.quoted(entry.instanceName)
            default: return nil
            }
        }
    }

    /// `value` as a filter value: quoted (with `"` and `\` escaped) when it holds anything
    /// that would end an unquoted value.
    static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && !value.contains { $0.isWhitespace || "&|()\"!\\".contains($0) }
        if plain { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
