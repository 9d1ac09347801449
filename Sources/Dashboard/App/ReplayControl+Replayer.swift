import CacheEvents
import SessionLog

extension ReplayControl {
    /// Carries the control out on a replayer and returns a line for the status bar.
    func apply<State: EventFolding>(to replayer: inout SessionReplayer<State>) -> String {
        switch self {
        case .togglePlaying:
            replayer.togglePlaying()
            return replayer.isPlaying ? "playing at \(replayer.speed)" : "paused"
        case .slower:
            replayer.slower()
            return "speed \(replayer.speed)"
        case .faster:
            replayer.faster()
            return replayer.speed.isUnlimited ? "speed: as fast as possible" : "speed \(replayer.speed)"
        case .stepBack:
            replayer.stepBack()
            return "event \(Format.count(replayer.position)) of \(Format.count(replayer.events.count))"
        case .stepForward:
            let event = replayer.stepForward()
            return event.map { "event \(Format.count(replayer.position)) of \(Format.count(replayer.events.count)): \($0.kind.name)" }
                ?? "at the end of the session"
        case .seek(let seconds):
            replayer.seek(by: seconds)
            return "at \(Format.clock(replayer.time - replayer.startTime))"
        case .seekFraction(let fraction):
            replayer.seek(toFraction: fraction)
            return "at \(Int((fraction * 100).rounded())) % (\(Format.clock(replayer.time - replayer.startTime)))"
        case .end:
            replayer.seekToEnd()
            return "at the end of the session"
        }
    }
}

extension ReplayStatus {
    /// The status of a replayer, for the header.
    init<State: EventFolding>(_ replayer: SessionReplayer<State>) {
        self.init(
            speed: replayer.speed, position: replayer.time - replayer.startTime, length: replayer.endTime - replayer.startTime,
            isPlaying: replayer.isPlaying, eventsApplied: replayer.position, eventCount: replayer.events.count)
    }
}
