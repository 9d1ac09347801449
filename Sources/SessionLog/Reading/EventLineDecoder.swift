import CacheEvents
import Foundation

/// Decodes one event line: the fast ``EventLineParser`` first, `JSONDecoder` for what it
/// leaves over, and a UTF-8 repair for lines with invalid bytes.
struct EventLineDecoder {
    /// What one line gave.
    enum Result {
        /// An event; `repairedColumn` is set when invalid UTF-8 at that column was replaced.
        case event(CacheEvent, repairedColumn: Int?)
        /// A well-formed line of an unknown kind.
        case unknownKind(String)
        /// Not JSON: what and where (0-based byte offset).
        case notJSON(JSONSyntaxError)
        /// JSON, but not an event: why.
        case notAnEvent(String)
    }

    private let parser = EventLineParser()
    private let decoder = JSONDecoder()

    mutating func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        do {
            return try decodeValid(line)
        } catch let error where error.problem == .invalidUTF8 {
            // Keep the event: decode again with the bad bytes replaced by U+FFFD.
            let repaired = Array(String(decoding: line, as: UTF8.self).utf8)
            let result = repaired.withUnsafeBufferPointer { buffer in
                Result(catching: { () throws(JSONSyntaxError) in try decodeValid(buffer) })
            }
            switch result {
            case .event(let event, _): return .event(event, repairedColumn: error.offset + 1)
            case .notJSON: return .notJSON(error)  // the bad bytes are the clearer explanation
            default: return result
            }
        } catch {
            return .notJSON(error)
        }
    }

    private mutating func decodeValid(_ line: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Result {
        switch try parser.parse(line) {
        case .event(let event):
            return .event(event, repairedColumn: nil)
        case .unknownKind(let kind):
            return .unknownKind(kind)
        case .notAnObject(let kind):
            return .notAnEvent("expected an object, found \(Self.article(kind))")
        case .needsDecoder:
            do {
                return .event(try decoder.decode(CacheEvent.self, from: Data(line)), repairedColumn: nil)
            } catch CacheEventDecodingError.unknownKind(let kind) {
                return .unknownKind(kind)
            } catch let error as DecodingError {
                if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                    // The line is JSON (the parser read it): Foundation says "not valid JSON"
                    // for a number its field cannot hold, naming no field.
                    return .notAnEvent("a number in it does not fit its field (negative, a fraction or too large where a whole number belongs)")
                }
                return .notAnEvent(DecodingProblem.describe(error))
            } catch {
                return .notAnEvent(String(describing: error))
            }
        }
    }

    private static func article(_ kind: JSONKind) -> String {
        switch kind {
        case .string: return "a string"
        case .number: return "a number"
        case .object: return "an object"
        case .array: return "an array"
        case .true, .false: return "a boolean"
        case .null: return "null"
        }
    }
}

extension EventLineDecoder.Result {
    fileprivate init(catching body: () throws(JSONSyntaxError) -> EventLineDecoder.Result) {
        do {
            self = try body()
        } catch {
            self = .notJSON(error)
        }
    }
}
