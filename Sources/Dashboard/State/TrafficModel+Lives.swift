/// The end of an attached instance's life (`cachescope attach S1 S2 …`): its connection
/// dropped, so the requests it had open will never be seen to finish — a process that comes
/// back is a new life whose request IDs start again.
///
/// The fleet says after which merged event (`seq`) the instance went away; the end takes
/// effect once that event is folded, so events still on their way are not cut off, and
/// nothing of the new life is.
extension TrafficModel {
    /// One instance's life ending after the event numbered `afterSeq`.
    struct LifeEnd: Sendable, Hashable {
        var instance: UInt16
        var afterSeq: UInt64
    }

    /// Ends the life of `instance` after the event numbered `afterSeq` (at once when it is
    /// already folded): its open requests are cut off — no longer in flight, shown as cut off —
    /// and its store's figures are left out of the fleet's total until it sends events again.
    public mutating func endLife(of instance: UInt16, after afterSeq: UInt64) {
        if afterSeq <= lastSeq {
            // Told late: events after the end are folded already, and the requests they
            // started (the next life's) stay open.
            cutOff(instance, after: afterSeq)
        } else {
            pendingLifeEnds.append(LifeEnd(instance: instance, afterSeq: afterSeq))
        }
    }

    /// Whether instance `index`'s store counts in the fleet's totals (the header's gauges, the
    /// Instances breakdown's total): the model's own word that it is gone — its life's end
    /// folded, and nothing heard from it since — not the roster's, which can be a moment ahead
    /// (a drop whose last events are not folded yet) or behind (a reconnect before the
    /// instance's first event). An instance the model has no figures of yet stores nothing it
    /// has seen, so for it the roster's word stands.
    func countsInTotal(_ index: Int, roster: InstanceRoster) -> Bool {
        if index < perInstance.count { return !perInstance[index].gone }
        return index < roster.instances.count ? roster.instances[index].connected : false
    }

    /// How many instances were reached (pid not 0) and are left out of the totals
    /// (``countsInTotal(_:roster:)``): the header's `(N gone)`, so it always agrees with the
    /// totals beside it.
    func goneCount(roster: InstanceRoster) -> Int {
        roster.instances.indices.count { roster.instances[$0].pid != 0 && !countsInTotal($0, roster: roster) }
    }

    /// Carries out the ends whose last event is now folded.
    mutating func endDueLives() {
        let due = pendingLifeEnds.filter { $0.afterSeq <= lastSeq }
        guard !due.isEmpty else { return }
        pendingLifeEnds.removeAll { $0.afterSeq <= lastSeq }
        for end in due { cutOff(end.instance, after: end.afterSeq) }
    }

    private mutating func cutOff(_ instance: UInt16, after afterSeq: UInt64) {
        for serial in requests.closeAll(instance: instance, startedAtOrBefore: afterSeq) {
            requests.update(serial: serial) { $0.cutOffAt = clock }
        }
        let index = Int(instance)
        if index < perInstance.count, !perInstance[index].gone, perInstance[index].lastSeq <= afterSeq {
            perInstance[index].gone = true
            store = InstanceFigures.total(perInstance)
        }
    }
}
