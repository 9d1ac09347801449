import Foundation
import NIOCore
import NIOPosix

/// What a streamed exchange saw: the response head, how many body bytes arrived, the first
/// byte that differed from what was expected, and how far this process's resident memory grew
/// above where it was when the request was sent.
struct StreamedExchange: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let bodyBytes: Int
    let firstMismatch: Int?
    let peakGrowth: Int
    /// The body's first bytes (up to 4 KiB), for a text answer.
    let bodyPrefix: [UInt8]

    func value(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// One request over a real loopback socket whose bodies are made and checked part by part,
/// never held whole, so that the growth of this process's resident memory shows what the
/// proxy (in the same process) holds.
enum StreamingHTTP {
    /// Sends `head`, then `uploadParts` × `uploadPart` as the body (each write waits until the
    /// socket takes it), and reads the response, checking body byte `i` against `expected(i)`
    /// (when given). Stops reading and closes after `stopAfter` body bytes, when given.
    /// Samples resident memory every 4 MiB of body sent or read.
    static func exchange(
        port: Int, head: String, uploadPart: [UInt8] = [], uploadParts: Int = 0, expected: (@Sendable (Int) -> UInt8)? = nil,
        stopAfter: Int? = nil, timeout: Duration = .seconds(120)
    ) async throws -> StreamedExchange {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: StreamedExchange?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    var memory = MemoryWatch()
                    try await outbound.write(ByteBuffer(string: head))
                    let part = ByteBuffer(bytes: uploadPart)
                    for index in 0..<uploadParts {
                        try await outbound.write(part)
                        if index % max(1, (4 << 20) / max(1, uploadPart.count)) == 0 { memory.sample() }
                    }
                    return try await read(inbound, expected: expected, stopAfter: stopAfter, memory: &memory)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            guard let first = try await group.next(), let exchange = first else {
                group.cancelAll()
                throw RawHTTPError.timedOut(read: "(streamed)")
            }
            group.cancelAll()
            return exchange
        }
    }

    private static func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, expected: (@Sendable (Int) -> UInt8)?, stopAfter: Int?,
        memory: inout MemoryWatch
    ) async throws -> StreamedExchange {
        var headBytes: [UInt8] = []
        var parsedHead: (status: Int, headers: [(name: String, value: String)])?
        var bodyBytes = 0
        var mismatch: Int?
        var prefix: [UInt8] = []
        var nextSample = 4 << 20
        for try await chunk in inbound {
            var bytes = Array(chunk.readableBytesView)
            if parsedHead == nil {
                headBytes += bytes
                guard let end = find([13, 10, 13, 10], in: headBytes) else { continue }
                parsedHead = try parseHead(Array(headBytes[..<end]))
                bytes = Array(headBytes[(end + 4)...])
                headBytes = []
            }
            if prefix.count < 4096 { prefix += bytes.prefix(4096 - prefix.count) }
            if let expected, mismatch == nil {
                for (offset, byte) in bytes.enumerated() where byte != expected(bodyBytes + offset) {
                    mismatch = bodyBytes + offset
                    break
                }
            }
            bodyBytes += bytes.count
            if bodyBytes >= nextSample {
                memory.sample()
                nextSample += 4 << 20
            }
            if let stopAfter, bodyBytes >= stopAfter { break }
            if let length = parsedHead?.headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }),
                bodyBytes >= length
            {
                break
            }
        }
        guard let head = parsedHead else { throw RawHTTPError.malformed(String(decoding: headBytes, as: UTF8.self)) }
        return StreamedExchange(
            status: head.status, headers: head.headers, bodyBytes: bodyBytes, firstMismatch: mismatch, peakGrowth: memory.peakGrowth,
            bodyPrefix: prefix)
    }

    private static func parseHead(_ bytes: [UInt8]) throws -> (status: Int, headers: [(name: String, value: String)]) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError.malformed(lines.first ?? "") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// This process's resident set size (`/proc/self/statm`), from a baseline taken when made.
struct MemoryWatch {
    private let baseline = MemoryWatch.resident()
    private(set) var peakGrowth = 0

    mutating func sample() {
        peakGrowth = max(peakGrowth, Self.resident() - baseline)
    }

    static func resident() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
