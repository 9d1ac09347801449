import CacheEvents
import SessionLog
import Foundation
import NIOCore
import NIOFoundationCompat

/// A `command` line from dashboard to server: `{"type":"command","id":7,"command":{"purge":{"key":"GET https://…"}}}`.
/// `command` is ``ClientCommand`` in its `Codable` form.
struct CommandRequest: Sendable, Hashable {
    /// Chosen by the dashboard; the server's `result` line repeats it.
    var id: Int
    /// What to do.
    var command: ClientCommand
}

/// Why a line from a dashboard is not a valid command, and its `id` when that much could be read.
struct LineProblem: Error, Sendable, Hashable {
    var id: Int?
    var message: String
}

extension CommandRequest: Encodable {
    private enum CodingKeys: String, CodingKey {
        case type, id, command
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("command", forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(command, forKey: .command)
    }
}

// MARK: - Parsing with problems a person can fix

extension CommandRequest {
    /// The command names this version knows, for the message about an unknown one.
    static let knownCommands = ["purge", "purgeTag", "purgePrefix", "purgeFilter", "purgeAll", "purgeExpired", "refresh", "reload"]

    /// Reads one line, naming the first thing wrong with it.
    static func parse(_ line: ByteBuffer, decoder: JSONDecoder) -> Result<CommandRequest, LineProblem> {
        let outline: Outline
        do {
            outline = try decoder.decode(Outline.self, from: line)
        } catch {
            return .failure(LineProblem(id: nil, message: describe(error)))
        }
        guard let type = outline.type else {
            return .failure(LineProblem(id: outline.id, message: "missing field \"type\" (a dashboard sends \"command\" lines)"))
        }
        guard type == "command" else {
            return .failure(LineProblem(id: outline.id, message: "unknown line type \"\(type)\" (a dashboard sends \"command\" lines)"))
        }
        guard let id = outline.id else {
            return .failure(LineProblem(id: nil, message: "missing or non-integer field \"id\""))
        }
        guard let names = outline.commandNames else {
            return .failure(LineProblem(id: id, message: "missing field \"command\" (for example {\"purge\":{\"key\":\"GET https://…\"}})"))
        }
        guard names.count == 1, let name = names.first, knownCommands.contains(name) else {
            let shown = names.isEmpty ? "{}" : names.map { "\"\($0)\"" }.joined(separator: ", ")
            return .failure(LineProblem(
                id: id,
                message: "unknown command \(shown); known commands: \(knownCommands.joined(separator: ", "))"
            ))
        }
        do {
            let command = try decoder.decode(Envelope.self, from: line).command
            return .success(CommandRequest(id: id, command: command))
        } catch {
            return .failure(LineProblem(id: id, message: "command \"\(name)\": \(describe(error))"))
        }
    }

    /// A lenient first look: every field optional, so a broken field cannot hide the `id`.
    private struct Outline: Decodable {
        var type: String?
        var id: Int?
        /// The keys of the `command` object; `nil` when the field is missing or not an object.
        var commandNames: [String]?

        private enum CodingKeys: String, CodingKey {
            case type, id, command
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            id = try? container.decodeIfPresent(Int.self, forKey: .id)
            let command = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: .command)
            commandNames = command.map { $0.allKeys.map(\.stringValue).sorted() }
        }
    }

    private struct Envelope: Decodable {
        var command: ClientCommand
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A decoding error in words: which field, and what was wrong with it.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context.codingPath + [key]))\""
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "expected a JSON object" }
            return "field \"\(path(context.codingPath))\" must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field \"\(path(context.codingPath))\" is null but must be \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "field \"\(path(context.codingPath))\" is invalid"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: return "a string"
        case is Int.Type, is Int?.Type: return "an integer"
        case is Bool.Type: return "true or false"
        default: return "an object"
        }
    }
}
