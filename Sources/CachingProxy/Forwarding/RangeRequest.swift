import Foundation
import HTTPCaching
import HTTPTypes

/// A client's `Range` (RFC 9110 §14.2) answered from a complete 200 — one the store served, or
/// one the origin sent ignoring the range: a 206 with the bytes asked for, or a 416 when none of
/// them exist. One range only; a request for several gets the whole 200, as a server may answer.
/// A `Range` miss is forwarded with its `Range`, and the origin's 206 is passed on (and never
/// stored: the rules do not store partial content).
enum RangeRequest {
    /// What to send for a range request.
    enum Answer: Equatable {
        /// The whole 200: no usable `Range`, several ranges, or an `If-Range` that does not match.
        case whole
        /// The bytes `range` of the body (206).
        case partial(ClosedRange<Int>)
        /// No byte of the range exists (416), and why.
        case unsatisfiable(Unsatisfiable)
    }

    /// Why a range selects no byte, for the 416's text.
    enum Unsatisfiable: Equatable {
        /// `bytes=FIRST-…` with FIRST at or past the body's end.
        case startsPastEnd
        /// `bytes=-0`: the last zero bytes.
        case emptySuffix
        /// Any range of an empty body.
        case emptyBody

        /// The 416's line, for a body of `length` bytes.
        func message(length: Int) -> String {
            switch self {
            case .startsPastEnd: "the Range starts past the end of the \(length) bytes the response has"
            case .emptySuffix: "the Range asks for the last 0 bytes (bytes=-0), which is no byte at all"
            case .emptyBody: "the Range asks for bytes of a response that has none"
            }
        }
    }

    /// The answer to `request` when the cache produced `response` with a body of `length` bytes.
    static func answer(to request: IncomingRequest, response: HTTPResponse, length: Int, now: Date) -> Answer {
        guard request.method == .get, response.status.code == 200, let value = request.fields[.range] else { return .whole }
        if let condition = request.fields[.ifRange], !ifRangeMatches(condition, response: response, now: now) { return .whole }
        return parse(value, length: length)
    }

    /// Parses `bytes=FIRST-LAST`, `bytes=FIRST-` or `bytes=-SUFFIX` against a body of `length`.
    static func parse(_ value: String, length: Int) -> Answer {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }  // another unit: ignored
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let lastText = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(text)
        }
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard length > 0 else { return .unsatisfiable(.emptyBody) }
            guard suffix > 0 else { return .unsatisfiable(.emptySuffix) }
            return .partial(max(0, length - suffix)...(length - 1))
        }
        guard let first = number(firstText) else { return .whole }
        let last: Int
        if lastText.isEmpty {
            last = length - 1
        } else {
            guard let given = number(lastText), given >= first else { return .whole }  // invalid: ignored
            last = min(given, length - 1)
        }
        guard first < length else { return .unsatisfiable(length == 0 ? .emptyBody : .startsPastEnd) }
        return .partial(first...last)
    }

    /// `If-Range` (RFC 9110 §13.1.5): an entity-tag must match the response's strongly; a date
    /// must equal its `Last-Modified`.
    private static func ifRangeMatches(_ condition: String, response: HTTPResponse, now: Date) -> Bool {
        let value = condition.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard let wanted = EntityTag(parsing: value), let current = response.headerFields[.eTag].flatMap({ EntityTag(parsing: $0) })
            else { return false }
            return wanted.matchesStrongly(current)
        }
        guard let date = HTTPDate.parse(value, reference: now),
            let modified = response.headerFields[.lastModified].flatMap({ HTTPDate.parse($0, reference: now) })
        else { return false }
        return date == modified
    }

    /// The 206 or 416 for `answer`, from the 200 `response` and its `body`; `nil` for `.whole`.
    static func response(_ answer: Answer, from response: HTTPResponse, body: Data) -> (HTTPResponse, Data)? {
        switch answer {
        case .whole:
            return nil
        case .partial(let range):
            var fields = response.headerFields
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(body.count)"
            let start = body.index(body.startIndex, offsetBy: range.lowerBound)
            let end = body.index(body.startIndex, offsetBy: range.upperBound + 1)
            return (HTTPResponse(status: .partialContent, headerFields: fields), Data(body[start..<end]))
        case .unsatisfiable(let why):
            var fields = HTTPFields()
            for field in response.headerFields where ["date", "via", "cache-status", "age"].contains(field.name.canonicalName) {
                fields.append(field)
            }
            fields[.contentRange] = "bytes */\(body.count)"
            // An answer the proxy makes itself: a line saying what to change, never stored.
            let message = ProxyAnswer.text(why.message(length: body.count), into: &fields)
            return (HTTPResponse(status: .rangeNotSatisfiable, headerFields: fields), message)
        }
    }
}
