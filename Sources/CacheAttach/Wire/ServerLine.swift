import CacheEvents
import SessionLog

/// One line from server to dashboard. Every line is a JSON object with a `type`:
/// `hello` (first line), `event` (a ``CacheEvent`` in its flat session-log form plus
/// `"type":"event"`), or `result` (the answer to a command).
enum ServerLine: Sendable, Hashable {
    case hello(AttachHello)
    case event(CacheEvent)
    case result(CommandReply)
}

/// A line whose `type` this version does not know; dashboards skip such lines.
struct UnknownLineType: Error, Sendable, Hashable, CustomStringConvertible {
    var type: String
    var description: String { "unknown line type \"\(type)\"" }
}

extension ServerLine: Codable {
    private enum CodingKeys: String, CodingKey {
        case type
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try AttachHello(from: decoder))
        case "event": self = .event(try CacheEvent(from: decoder))
        case "result": self = .result(try CommandReply(from: decoder))
        default: throw UnknownLineType(type: type)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hello(let hello):
            try container.encode("hello", forKey: .type)
            try hello.encode(to: encoder)
        case .event(let event):
            try container.encode("event", forKey: .type)
            try event.encode(to: encoder)
        case .result(let reply):
            try container.encode("result", forKey: .type)
            try reply.encode(to: encoder)
        }
    }
}
