import Foundation
import NIOCore
import NIOPosix

/// A response as read off the socket, unparsed beyond framing.
struct RawResponse: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// Every value of `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The value of `name`, lines joined with `, `; `nil` when absent.
    func value(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// What one raw exchange read back.
struct RawExchange: Sendable {
    let responses: [RawResponse]
    /// Whether the proxy closed the connection.
    let closed: Bool
    /// Every byte read, interim (1xx) responses included.
    var received: [UInt8] = []

    /// The status of each interim (1xx) response read, in order.
    var interimStatuses: [Int] {
        String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
            .filter { $0.hasPrefix("HTTP/1.") }
            .compactMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
            .filter { $0 < 200 }
    }
}

enum RawHTTPError: Error, CustomStringConvertible {
    case timedOut(read: String)
    case malformed(String)

    var description: String {
        switch self {
        case .timedOut(let read): "no complete answer in time; read so far: \(read.prefix(300))"
        case .malformed(let text): "cannot parse the response: \(text.prefix(300))"
        }
    }
}

/// Sends bytes exactly as given over a real loopback socket and reads responses back, so tests
/// can send what no HTTP client library would: pipelined, malformed, oversized requests.
enum RawHTTP {
    /// Sends `request` (text) to `port`, reads `expecting` responses (or until the server
    /// closes), and says whether the server closed. `heads` lists which of the responses answer
    /// a HEAD (no body). Fails after `timeout`.
    static func send(
        _ request: String, port: Int, expecting count: Int = 1, heads: Set<Int> = [], waitForClose: Bool = false,
        timeout: Duration = .seconds(10)
    ) async throws -> RawExchange {
        try await send([Array(request.utf8)], port: port, expecting: count, heads: heads, waitForClose: waitForClose, timeout: timeout)
    }

    /// Sends each part of `parts` in its own write, with `pause` between them.
    static func send(
        _ parts: [[UInt8]], pause: Duration = .zero, port: Int, expecting count: Int = 1, heads: Set<Int> = [],
        waitForClose: Bool = false, timeout: Duration = .seconds(10)
    ) async throws -> RawExchange {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: RawExchange?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    for (index, part) in parts.enumerated() {
                        if index > 0, pause > .zero { try await Task.sleep(for: pause) }
                        do {
                            try await outbound.write(ByteBuffer(bytes: part))
                        } catch ChannelError.ioOnClosedChannel {
                            break  // the server answered and closed before reading it all (a 503 at the limit)
                        }
                    }
                    var received: [UInt8] = []
                    var closed = true
                    var iterator = inbound.makeAsyncIterator()
                    while true {
                        if !waitForClose, let parsed = try parse(received, heads: heads), parsed.count >= count {
                            closed = false
                            break
                        }
                        guard let chunk = try await iterator.next() else { break }
                        received += chunk.readableBytesView
                    }
                    let responses = try parse(received, heads: heads, atEnd: true) ?? []
                    return RawExchange(responses: responses, closed: closed, received: received)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            guard let first = try await group.next(), let exchange = first else {
                group.cancelAll()
                throw RawHTTPError.timedOut(read: "")
            }
            group.cancelAll()
            return exchange
        }
    }

    /// Parses every complete response in `bytes`; `nil` when a response's head or body is
    /// incomplete (unless `atEnd`, when what is complete is returned).
    static func parse(_ bytes: [UInt8], heads: Set<Int>, atEnd: Bool = false) throws -> [RawResponse]? {
        var responses: [RawResponse] = []
        var position = 0
        let separator: [UInt8] = [13, 10, 13, 10]
        while position < bytes.count {
            guard let headEnd = find(separator, in: bytes, from: position) else { return atEnd ? responses : nil }
            let headText = String(decoding: bytes[position..<headEnd], as: UTF8.self)
            var lines = headText.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError.malformed(headText) }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var bodyStart = headEnd + 4
            if status < 200 {  // an interim response: no body, the final one follows
                position = bodyStart
                continue
            }
            let noBody = heads.contains(responses.count) || status == 204 || status == 304
            let length = noBody ? 0 : headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap { Int($0.value) }
            let body: [UInt8]
            if let length {
                guard bytes.count - bodyStart >= length else { return atEnd ? responses : nil }
                body = Array(bytes[bodyStart..<(bodyStart + length)])
                bodyStart += length
            } else {
                guard atEnd else { return nil }  // delimited by close
                body = Array(bytes[bodyStart...])
                bodyStart = bytes.count
            }
            responses.append(RawResponse(status: status, headers: headers, body: body))
            position = bodyStart
        }
        return responses
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
