import TerminalUI

/// The `INSTANCE` column of the Requests and Entries views, shown only when the dashboard
/// watches several instances: each row's instance by name, `✗` after the name of one that is
/// gone (its rows stay). With one instance the tables are exactly as before.
enum InstanceColumn {
    /// The column's id (also the drill-down column's).
    static let id = "instance"
    /// The widest the column gets: 20 (longer names are cut with `…`).
    static let maximumWidth = 20

    /// `columns` with the instance column after the column `after`, when `roster` is a fleet.
    static func adding(to columns: [TableColumn], after: String, roster: InstanceRoster) -> [TableColumn] {
        guard roster.isFleet else { return columns }
        let widest = roster.instances.map { TextWidth.of($0.name) }.max() ?? 0
        let column = TableColumn(
            id: id, title: "INSTANCE", width: min(maximumWidth, max(8, widest + 2)), priority: 3)
        var result = columns
        let index = result.firstIndex { $0.id == after }.map { $0 + 1 } ?? 0
        result.insert(column, at: index)
        return result
    }

    /// The cell: the name, dimmed and followed by `✗` when the instance is gone.
    static func cell(instance: UInt16, name: String, roster: InstanceRoster) -> [Span] {
        let shown = Escaped.text(name.isEmpty ? roster[instance]?.name ?? "#\(instance)" : name)
        guard roster[instance]?.connected == false else { return [Span(shown)] }
        return [Span(shown, .dim), Span(" ✗", .error)]
    }
}
