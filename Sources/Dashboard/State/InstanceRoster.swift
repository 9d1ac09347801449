/// The instances a fleet dashboard watches (`cachescope attach S1 S2 …`), by the index their
/// events carry (``CacheEvent/instance``): each one's name, process id and whether it is
/// connected. The attach side keeps it current and hands it to the dashboard
/// (`DashboardApp.setInstances(_:)`); events never change it.
///
/// Empty while the dashboard watches one process: then no `instance` column is shown.
///
/// ```swift
/// var roster = InstanceRoster()
/// roster.instances = [InstanceStatus(name: "web", pid: 41, connected: true),
///                     InstanceStatus(name: "web#2", pid: 42, connected: false)]
/// roster.isFleet          // true: the Requests and Entries views show the instance column
/// ```
public struct InstanceRoster: Sendable, Hashable {
    /// The instances by index.
    public var instances: [InstanceStatus] = []

    /// No instances (one process watched).
    public init(_ instances: [InstanceStatus] = []) {
        self.instances = instances
    }

    /// Whether more than one instance is attached: the views show the instance column.
    public var isFleet: Bool { instances.count > 1 }

    /// The names by index.
    public var names: [String] { instances.map(\.name) }

    /// The instance with `index`, if known.
    public subscript(index: UInt16) -> InstanceStatus? {
        Int(index) < instances.count ? instances[Int(index)] : nil
    }

    /// How many are connected now.
    public var connectedCount: Int { instances.count(where: \.connected) }

    /// The instances whose connection dropped in `newer` since this roster, each with the
    /// `seq` of its last event before the drop.
    func livesEnded(in newer: InstanceRoster) -> [(instance: UInt16, afterSeq: UInt64)] {
        newer.instances.indices.compactMap { index in
            let instance = UInt16(clamping: index)
            guard let goneAfter = newer.instances[index].goneAfter, goneAfter != self[instance]?.goneAfter else { return nil }
            return (instance, goneAfter)
        }
    }
}

/// One attached instance: its name (from the hello's process name, made unique: `web`, `web#2`),
/// the process id of its current life, and whether its connection is up.
public struct InstanceStatus: Sendable, Hashable {
    /// The name shown in the instance column and matched by `instance:NAME`.
    public var name: String
    /// The process id from its latest hello.
    public var pid: Int32
    /// Whether its connection is up (`false`: gone; its rows stay, marked).
    public var connected: Bool
    /// The socket it is attached through.
    public var path: String
    /// The merged `seq` of the last event before its connection last dropped; `nil` while it
    /// never dropped. Each drop ends a life: once the dashboard has folded that event, the
    /// requests the instance had open are cut off (``TrafficModel/endLife(of:after:)``).
    public var goneAfter: UInt64?

    /// An instance.
    public init(name: String, pid: Int32, connected: Bool, path: String = "", goneAfter: UInt64? = nil) {
        self.name = name
        self.pid = pid
        self.connected = connected
        self.path = path
        self.goneAfter = goneAfter
    }
}
