/// The canonical form of a proactive-negotiation field value — `Accept`, `Accept-Charset`,
/// `Accept-Encoding`, `Accept-Language` (RFC 9110 §12.5) — for comparing Vary selecting
/// values (RFC 9111 §4.1).
///
/// RFC 9111 §4.1 lets a cache normalise a value only where the field's syntax makes the
/// forms equivalent. These fields share one grammar, and only what it declares equivalent
/// is changed:
///
/// ```
/// list      = [ element ] *( OWS "," OWS [ element ] )       empty elements are ignored
/// element   = head *( OWS ";" OWS [ parameter ] )              RFC 9110 §5.6.6
/// head      = token "/" token  (Accept: a media range)  /  token  (the others)
/// parameter = token "=" ( token / quoted-string )
/// ```
///
/// - white space around `,` and `;` is dropped, empty elements and parameters too;
/// - heads (media types, codings, charsets, language ranges) and parameter names are
///   lower-cased: they are case-insensitive (§8.3.1, §8.4.1, §12.5.4, RFC 4647 §2);
/// - parameter values keep their case — their meaning is the parameter's to define — except
///   those a syntax names as case-insensitive (`charset`, §8.3.2);
/// - a quoted-string is unescaped and written as a token when its content is one (both forms
///   are the same value, §5.6.6), otherwise re-quoted with only `"` and `\` escaped; its
///   content, white space included, never changes.
///
/// A value outside the grammar is not normalised at all: ``normalized(_:syntax:)`` returns
/// `nil` and the caller compares it exactly. The canonical form is itself in the grammar and
/// normalises to itself, so a stored value can be fed back as a request value.
enum NegotiationList {
    /// How one field's elements look.
    struct Syntax: Equatable {
        /// Whether an element starts with a media range (`type/subtype`) rather than one token.
        var mediaRange: Bool
        /// Parameters whose values are case-insensitive (lower-cased names).
        var caseInsensitiveValues: [String]

        /// The syntax of a request field by its lower-cased name; `nil` for a field whose
        /// syntax this cache does not know (its values are compared exactly).
        init?(field name: String) {
            switch name {
            case "accept": self.init(mediaRange: true, caseInsensitiveValues: ["charset"])
            case "accept-charset", "accept-encoding", "accept-language": self.init(mediaRange: false, caseInsensitiveValues: [])
            default: return nil
            }
        }

        init(mediaRange: Bool, caseInsensitiveValues: [String]) {
            self.mediaRange = mediaRange
            self.caseInsensitiveValues = caseInsensitiveValues
        }
    }

    /// The canonical form of a (combined) field value, or `nil` when it does not follow the
    /// grammar. Elements are joined with `", "`, parameters with `";"`, order unchanged.
    static func normalized(_ text: String, syntax: Syntax) -> String? {
        var scanner = Scanner(bytes: Array(text.utf8), syntax: syntax)
        guard let bytes = scanner.list() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Scanning

    private struct Scanner {
        let bytes: [UInt8]
        let syntax: Syntax
        var index = 0

        init(bytes: [UInt8], syntax: Syntax) {
            self.bytes = bytes
            self.syntax = syntax
        }

        mutating func list() -> [UInt8]? {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            while true {
                skipSpaces()
                guard let byte = peek() else { return out }
                if byte == UInt8(ascii: ",") {
                    index += 1  // an empty element
                    continue
                }
                if !out.isEmpty { out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                guard element(into: &out) else { return nil }
                skipSpaces()
                if let next = peek() {
                    guard next == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            }
        }

        private mutating func element(into out: inout [UInt8]) -> Bool {
            guard let type = token() else { return false }
            out.append(contentsOf: lowercased(type))
            if syntax.mediaRange {
                guard consume(UInt8(ascii: "/")), let subtype = token() else { return false }
                out.append(UInt8(ascii: "/"))
                out.append(contentsOf: lowercased(subtype))
            }
            while true {
                let mark = index
                skipSpaces()
                guard consume(UInt8(ascii: ";")) else {
                    index = mark  // the list decides what may follow
                    return true
                }
                skipSpaces()
                guard let next = peek(), next != UInt8(ascii: ","), next != UInt8(ascii: ";") else { continue }
                guard let name = token(), consume(UInt8(ascii: "=")) else { return false }
                let lowerName = lowercased(name)
                out.append(UInt8(ascii: ";"))
                out.append(contentsOf: lowerName)
                out.append(UInt8(ascii: "="))
                let value: ArraySlice<UInt8>
                if peek() == UInt8(ascii: "\"") {
                    guard let content = quotedString() else { return false }
                    guard !content.isEmpty, content.allSatisfy(FieldListScanner.isTokenChar) else {
                        appendQuoted(content, to: &out)
                        continue
                    }
                    value = content[...]
                } else {
                    guard let token = token() else { return false }
                    value = token
                }
                let caseInsensitive = syntax.caseInsensitiveValues.contains(String(decoding: lowerName, as: UTF8.self))
                out.append(contentsOf: caseInsensitive ? lowercased(value) : Array(value))
            }
        }

        // MARK: Pieces

        private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpaces() {
            while let byte = peek(), FieldListScanner.isSpace(byte) { index += 1 }
        }

        private mutating func token() -> ArraySlice<UInt8>? {
            let start = index
            while let byte = peek(), FieldListScanner.isTokenChar(byte) { index += 1 }
            return index > start ? bytes[start..<index] : nil
        }

        /// The unescaped content of a quoted-string at the opening quote; `nil` when it is
        /// unterminated or holds a byte the grammar does not allow (RFC 9110 §5.6.4).
        private mutating func quotedString() -> [UInt8]? {
            index += 1
            var content: [UInt8] = []
            while let byte = peek() {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return content
                case UInt8(ascii: "\\"):
                    guard let escaped = peek(), escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else { return nil }
                    content.append(escaped)
                    index += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF:
                    content.append(byte)
                default:
                    return nil
                }
            }
            return nil
        }

        private func appendQuoted(_ content: [UInt8], to out: inout [UInt8]) {
            out.append(UInt8(ascii: "\""))
            for byte in content {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }

        /// ASCII lower-casing: tokens are ASCII.
        private func lowercased(_ slice: some Collection<UInt8>) -> [UInt8] {
            slice.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        }
    }
}
