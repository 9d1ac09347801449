@testable import CacheAttach
import CacheStore
import CacheEvents
import SessionLog
import Foundation
import NIOCore
import NIOEmbedded
import Testing
import HTTPCaching

/// The protocol as documented in docs/attach.md, line by line.
@Suite("Wire format", .timeLimit(.minutes(2)))
struct WireFormatTests {
    private func object(_ line: String) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
    }

    private func text(_ line: ServerLine) throws -> String {
        String(buffer: try JSONLines().line(line))
    }

    @Test("the server greets first, with format, version, process and pid")
    func helloLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await MiniStore().publish(at: directory.file("shop.sock"), processName: "shop")
        let peer = try RawLineSocket(path: server.path)
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(try await peer.readLine()
            == #"{"format":"cachescope-attach","pid":\#(pid),"process":"shop","type":"hello","version":1}"#)
        await server.stop()
    }

    @Test("an event line is the session-log event object plus \"type\":\"event\"")
    func eventLine() throws {
        let event = CacheEvent(seq: 7, time: 1.5, requestID: 3, kind: .lookup(Lookup(verdict: .fresh, reason: "max-age=60", age: 4, ttl: 56)))
        let line = try text(.event(event))
        #expect(line.hasSuffix("}\n"))
        #expect(!line.dropLast().contains("\n"))
        #expect(try object(line) == [
            "type": "event", "seq": 7, "t": 1.5, "req": 3, "kind": "lookup", "verdict": "fresh",
            "reason": "max-age=60", "age": 4, "ttl": 56,
        ] as NSDictionary)
        #expect(try JSONDecoder().decode(CacheEvent.self, from: Data(line.utf8)) == event)
        #expect(line.contains("\"reason\":\"max-age=60\""))
    }

    @Test("URLs are written without escaped slashes")
    func slashes() throws {
        let line = try text(.event(CacheEvent(seq: 1, time: 0, kind: .purged(Purged(scope: PurgeScope(word: "key", key: "GET https://a/b", variant: nil, since: nil), count: 1)))))
        #expect(line.contains("\"key\":\"GET https://a/b\""))
    }

    @Test("result lines carry the command's id, or none when it could not be read")
    func resultLine() throws {
        #expect(try object(try text(.result(CommandReply(id: 4, succeeded: true, message: "purged 2 entries")))) == [
            "type": "result", "id": 4, "succeeded": true, "message": "purged 2 entries",
        ] as NSDictionary)
        #expect(try object(try text(.result(CommandReply(id: nil, succeeded: false, message: "not valid JSON")))) == [
            "type": "result", "succeeded": false, "message": "not valid JSON",
        ] as NSDictionary)
    }

    @Test("command lines wrap ClientCommand's Codable form")
    func commandLines() throws {
        let lines = JSONLines()
        #expect(String(buffer: try lines.line(CommandRequest(id: 1, command: .purge(key: "GET https://example.com/a"))))
            == #"{"command":{"purge":{"key":"GET https://example.com/a"}},"id":1,"type":"command"}"# + "\n")
        let cases: [(ClientCommand, NSDictionary)] = [
            (.purge(key: "GET https://a/b"), ["purge": ["key": "GET https://a/b"]]),
            (.purgeAll, ["purgeAll": [:] as NSDictionary]),
            (.purgeExpired, ["purgeExpired": [:] as NSDictionary]),
            (.refresh(key: "GET https://a/b", variant: nil), ["refresh": ["key": "GET https://a/b"]]),
            (.reload(key: "GET https://a/b", variant: "accept-language=de"), ["reload": ["key": "GET https://a/b", "variant": "accept-language=de"]]),
        ]
        for (command, expected) in cases {
            let buffer = try lines.line(CommandRequest(id: 1, command: command))
            #expect(try object(String(buffer: buffer)) == ["type": "command", "id": 1, "command": expected] as NSDictionary)
            let parsed = CommandRequest.parse(buffer.getSlice(at: 0, length: buffer.readableBytes - 1)!, decoder: JSONDecoder())
            #expect(parsed == .success(CommandRequest(id: 1, command: command)))
        }
    }

    @Test("lines are split at newlines; CR before LF and empty lines are ignored")
    func lineFraming() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: 10)))
        try channel.writeInbound(ByteBuffer(string: "one\r\n\ntw"))
        try channel.writeInbound(ByteBuffer(string: "o\nthree"))
        #expect(try channel.readInbound(as: ByteBuffer.self).map { String(buffer: $0) } == "one")
        #expect(try channel.readInbound(as: ByteBuffer.self).map { String(buffer: $0) } == "two")
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        #expect(throws: LineTooLong(limit: 10)) {
            try channel.writeInbound(ByteBuffer(string: "-and-a-very-long-tail"))
        }
    }
}
