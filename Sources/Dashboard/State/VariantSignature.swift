import HTTPTypes
import CacheEvents
import SessionLog

/// Reads the Vary signatures the store gives variants (`accept-language="fr"&x-mode=-`), to
/// tell which variant a request used. Events name the primary key of a request but not its
/// variant, so a hit is credited to the variant whose selecting values the request carried.
enum VariantSignature {
    /// The selecting fields of a signature: lower-cased name → value (`nil` for absent).
    static func fields(of signature: String) -> [(name: String, value: String?)] {
        var result: [(name: String, value: String?)] = []
        var rest = Substring(signature)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].lowercased()
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                // A quoted value runs to the next quote; the store writes values without quotes inside.
                rest = rest.dropFirst()
                let close = rest.firstIndex(of: "\"") ?? rest.endIndex
                result.append((name, String(rest[..<close])))
                rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
            } else {
                let end = rest.firstIndex(of: "&") ?? rest.endIndex
                let value = rest[..<end]
                result.append((name, value == "-" ? nil : String(value)))
                rest = rest[end...]
            }
            if rest.first == "&" { rest = rest.dropFirst() }
        }
        return result
    }

    /// Whether a request with `requestHeaders` carries the values `signature` records
    /// (compared case-insensitively, white space collapsed).
    static func matches(_ signature: String, requestHeaders: HTTPFields) -> Bool {
        fields(of: signature).allSatisfy { field in
            let lines = requestHeaders.filter { $0.name.canonicalName == field.name }.map(\.value)
            let value = lines.isEmpty ? nil : normalized(lines.joined(separator: ", "))
            return value == field.value.map(normalized)
        }
    }

    /// As the store normalises: list members trimmed and joined with ", ", runs of white
    /// space collapsed, lower-cased (case only matters for a few fields; ignoring it can at
    /// worst credit a hit to a sibling variant).
    private static func normalized(_ value: String) -> String {
        value.lowercased()
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .joined(separator: ", ")
    }
}
