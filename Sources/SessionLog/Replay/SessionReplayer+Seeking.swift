import CacheEvents
extension SessionReplayer {
    /// Seeks the playhead to `time` (clamped to the session's span): afterwards exactly the
    /// events at or before it are applied. Playing continues if it was on.
    public mutating func seek(toTime time: Double) {
        let target = min(max(time, startTime), endTime)
        rebuild(to: events.upperBound(ofTime: target))
        self.time = target
    }

    /// Seeks by `seconds` from the playhead (`→`/`←` with ±10).
    public mutating func seek(by seconds: Double) {
        seek(toTime: time + seconds)
    }

    /// Seeks to a fraction (0…1) of the session's time span (`0`…`9` seek to 0 %…90 %).
    public mutating func seek(toFraction fraction: Double) {
        let clamped = min(max(fraction, 0), 1)
        seek(toTime: startTime + (endTime - startTime) * clamped)
    }

    /// Applies every event (`$`) and pauses.
    public mutating func seekToEnd() {
        rebuild(to: events.count)
        time = endTime
        isPlaying = false
    }

    /// Seeks so that exactly `position` events (clamped) are applied; the playhead goes to the
    /// last applied event's time (the start for position 0).
    public mutating func seek(toPosition position: Int) {
        let target = min(max(position, 0), events.count)
        rebuild(to: target)
        time = target > 0 ? events[target - 1].time : startTime
    }

    /// Makes ``state`` the fold of `events[0..<target]`: forward from the current state when
    /// that is no further than a checkpoint interval, else from the nearest checkpoint at or
    /// before `target`.
    private mutating func rebuild(to target: Int) {
        if target >= position, target - position <= checkpointInterval {
            applyForward(to: target)
            return
        }
        let checkpoint = min(target / checkpointInterval, checkpoints.count - 1)
        state = checkpoints[checkpoint]
        position = checkpoint * checkpointInterval
        applyForward(to: target)
    }
}
