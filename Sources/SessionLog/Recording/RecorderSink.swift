import CacheEvents
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The recorder's file end: encoded events collect in a buffer and reach the file in large
/// writes — when the buffer passes ``flushThreshold`` and whenever ``flush()`` is called
/// (the recorder calls it at least every flush interval).
///
/// Two locks, always taken in the order `output` → `pending` (append takes only `pending`):
/// `pending` guards the buffer events are encoded into, `output` guards the file descriptor,
/// so a flush never interleaves with another and appends never wait for a disk write.
final class RecorderSink: Sendable {
    /// Buffered bytes that trigger a flush from the appending side: 256 KiB.
    static let flushThreshold = 256 * 1024

    private struct Pending {
        var writer = JSONLineWriter(capacity: RecorderSink.flushThreshold + 4096)
        var events = 0
        /// The last `t` written: a recording's times never go back.
        var lastTime = -Double.infinity
    }

    private struct Output {
        var descriptor: FileDescriptor
        var spare: [UInt8] = []
        var bytesWritten = 0
        var failure: String?
        var closed = false
    }

    let path: String
    private let redacting: Bool
    private let pending = Mutex(Pending())
    private let output: Mutex<Output>

    /// Creates (or truncates) the file and writes `header` to it at once.
    ///
    /// The file is private to its owner (mode 0600, as the store's files): it holds URLs and
    /// headers. A regular file that already existed is set to 0600 too.
    init(path: String, header: SessionLogHeader) throws(SessionLogError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: .ownerReadWrite)
        } catch {
            throw .cannotCreate(file: path, reason: (error as? Errno)?.description ?? String(describing: error))
        }
        var info = stat()
        if fstat(descriptor.rawValue, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, (info.st_mode & 0o777) != 0o600,
            fchmod(descriptor.rawValue, 0o600) != 0 {
            let reason = InputFile.message(errno)
            try? descriptor.close()
            throw .cannotCreate(file: path, reason: reason)
        }
        self.path = path
        redacting = header.redacted
        output = Mutex(Output(descriptor: descriptor))
        var first = header.line
        output.withLock { Self.write(&first, to: &$0) }
        if let failure = output.withLock({ $0.failure }) { throw .cannotCreate(file: path, reason: failure) }
    }

    deinit {
        output.withLock { output in
            if !output.closed { try? output.descriptor.close() }
        }
    }

    /// Encodes one event into the buffer; returns whether the buffer is due for a flush.
    func append(_ event: CacheEvent) -> Bool {
        pending.withLock { pending in
            encode(event, into: &pending)
            return pending.writer.bytes.count >= Self.flushThreshold
        }
    }

    /// Encodes events into the buffer under one lock; returns whether a flush is due.
    func append(contentsOf events: [CacheEvent]) -> Bool {
        pending.withLock { pending in
            for event in events { encode(event, into: &pending) }
            return pending.writer.bytes.count >= Self.flushThreshold
        }
    }

    /// Encodes `event` with its time raised to the last one written, if it was earlier. Events
    /// are stamped before they reach the bus's lock (a request's answer carries the time it
    /// came), so two threads' events can arrive a few microseconds out of time order; the file
    /// promises its readers times that never decrease (session-log.md).
    private func encode(_ event: CacheEvent, into pending: inout Pending) {
        let time = max(event.time.isFinite ? event.time : 0, pending.lastTime)
        pending.lastTime = time
        EventLineEncoder.encode(event, time: time, redacting: redacting, into: &pending.writer)
        pending.events += 1
    }

    /// Events encoded so far.
    var eventsAppended: Int { pending.withLock { $0.events } }

    /// Bytes that reached the file so far (the header included).
    var bytesWritten: Int { output.withLock { $0.bytesWritten } }

    /// Writes everything buffered to the file.
    func flush() {
        output.withLock { output in
            guard !output.closed else { return }
            var batch = output.spare
            batch.removeAll(keepingCapacity: true)
            pending.withLock { swap(&$0.writer.bytes, &batch) }
            Self.write(&batch, to: &output)
            output.spare = batch
        }
    }

    /// Flushes, forces the data to disk and closes the file; idempotent.
    /// - Throws: ``SessionLogError/writeFailed(file:reason:)`` if any write failed.
    func close() throws(SessionLogError) {
        flush()
        let failure = output.withLock { output -> String? in
            if !output.closed {
                if fsync(output.descriptor.rawValue) != 0, output.failure == nil, errno != EINVAL {
                    output.failure = InputFile.message(errno)
                }
                try? output.descriptor.close()
                output.closed = true
            }
            return output.failure
        }
        if let failure { throw .writeFailed(file: path, reason: failure) }
    }

    /// The first write failure, if any.
    var failure: String? { output.withLock { $0.failure } }

    private static func write(_ bytes: inout [UInt8], to output: inout Output) {
        guard output.failure == nil, !bytes.isEmpty else { return }
        let descriptor = output.descriptor
        let outcome: (written: Int, failure: String?) = bytes.withUnsafeBytes { raw in
            // swift-system retries interrupted writes; a short write continues where it ended.
            var offset = 0
            do {
                while offset < raw.count { offset += try descriptor.write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
                return (offset, nil)
            } catch {
                return (offset, (error as? Errno)?.description ?? String(describing: error))
            }
        }
        output.bytesWritten += outcome.written
        output.failure = outcome.failure
    }
}
