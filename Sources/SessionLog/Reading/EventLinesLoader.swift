import CacheEvents
/// Reads the event lines of one part of a session log (the whole log after its header, or
/// one of several ranges loaded in parallel): decodes each line, clamps times within the
/// part, and collects what it had to skip. Line numbers are relative to the part; the
/// reader shifts them when it joins the parts.
struct EventLinesLoader {
    let file: String
    let events = EventChunks()
    private(set) var warnings: [SessionLogWarning] = []
    private(set) var suppressedWarnings = 0
    private(set) var skippedLines = 0
    /// Per unknown kind: the first line and how many lines.
    private(set) var unknownKinds: [String: (firstLine: Int, count: Int)] = [:]
    /// Positions (within the part) of events whose time was raised.
    private(set) var clampedPositions: [Int] = []
    /// The first time that went backwards within the part.
    private(set) var backwardTime: (line: Int, time: Double, previous: Double)?
    /// The line of the part's first event.
    private(set) var firstEventLine: Int?
    /// Lines seen (including blank and skipped ones).
    private(set) var lineCount = 0
    private var latestTime = -Double.infinity
    /// The line of the part's last event.
    private(set) var lastEventLine = 0
    private var decoder = EventLineDecoder()

    init(file: String) {
        self.file = file
    }

    /// The latest event time in the part (after clamping).
    var lastTime: Double? { events.count > 0 ? latestTime : nil }

    mutating func consume(_ line: InputLine) {
        switch line {
        case .tooLong(let number, let length):
            lineCount = number
            skip(.lineTooLong(file: file, line: number, bytes: length))
        case .text(let bytes, let number, let terminated):
            lineCount = number
            read(bytes, number: number, terminated: terminated)
        }
    }

    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool) {
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }  // blank lines carry nothing
        switch decoder.decode(bytes) {
        case .event(var event, let repairedColumn):
            if events.count > 0, event.repeats(events[events.count - 1]) {
                return skip(.repeatedEvent(file: file, line: number, previousLine: lastEventLine))
            }
            if let repairedColumn { warn(.invalidUTF8(file: file, line: number, column: repairedColumn)) }
            if event.time < latestTime {
                if backwardTime == nil { backwardTime = (number, event.time, latestTime) }
                event.time = latestTime
                clampedPositions.append(events.count)
            }
            latestTime = event.time
            if firstEventLine == nil { firstEventLine = number }
            lastEventLine = number
            events.append(event)
        case .unknownKind(let kind):
            skippedLines += 1
            if let known = unknownKinds[kind] {
                unknownKinds[kind] = (known.firstLine, known.count + 1)
            } else {
                unknownKinds[kind] = (number, 1)
            }
        case .notJSON(let error):
            if terminated {
                skip(.notJSON(file: file, line: number, detail: "\(error) at column \(error.offset + 1)"))
            } else {
                skip(.truncatedLastLine(file: file, line: number))
            }
        case .notAnEvent(let reason):
            skip(.notAnEvent(file: file, line: number, detail: reason))
        }
    }

    private mutating func skip(_ warning: SessionLogWarning) {
        skippedLines += 1
        warn(warning)
    }

    private mutating func warn(_ warning: SessionLogWarning) {
        if warnings.count < SessionLogReader.maximumWarnings {
            warnings.append(warning)
        } else {
            suppressedWarnings += 1
        }
    }
}

extension SessionLogWarning {
    /// The same warning `lines` further down the file.
    func shifted(by lines: Int) -> SessionLogWarning {
        switch self {
        case .notJSON(let file, let line, let detail): return .notJSON(file: file, line: line + lines, detail: detail)
        case .notAnEvent(let file, let line, let detail): return .notAnEvent(file: file, line: line + lines, detail: detail)
        case .truncatedLastLine(let file, let line): return .truncatedLastLine(file: file, line: line + lines)
        case .lineTooLong(let file, let line, let bytes): return .lineTooLong(file: file, line: line + lines, bytes: bytes)
        case .invalidUTF8(let file, let line, let column): return .invalidUTF8(file: file, line: line + lines, column: column)
        case .unknownKind(let file, let line, let kind, let count): return .unknownKind(file: file, line: line + lines, kind: kind, count: count)
        case .timeWentBackwards(let file, let line, let time, let previous):
            return .timeWentBackwards(file: file, line: line + lines, time: time, previous: previous)
        case .repeatedEvent(let file, let line, let previousLine):
            return .repeatedEvent(file: file, line: line + lines, previousLine: previousLine + lines)
        case .badHeaderField: return self
        }
    }
}

extension CacheEvent {
    /// Whether this event, read right after `previous`, is the same line written twice (a copy
    /// and paste, a log joined from overlapping pieces): the same `seq`, request and payload.
    /// The time is not compared: the previous one may have been raised (times never go back).
    /// A store snapshot's `storeStats` and `entries` repeat the last `seq` by design: never.
    func repeats(_ previous: CacheEvent) -> Bool {
        seq == previous.seq && !kind.isSnapshotPart && requestID == previous.requestID && kind == previous.kind
    }
}
