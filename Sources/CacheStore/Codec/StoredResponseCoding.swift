import Foundation
import HTTPCaching
import HTTPTypes

/// The binary form of a ``StoredResponse``: key, Vary key, status, header fields and times.
///
/// `CacheKey` and `VaryKey` have no public memberwise initialisers, so they are rebuilt
/// through their public ones (`CacheKey(method:uri:)` re-normalises an already normal URI;
/// `VaryKey(responseHeaders:requestHeaders:)` re-normalises the stored values). The writer
/// checks that the rebuild gives back an equal value and otherwise stores the JSON form
/// (their `Codable` conformance) instead, so decoding is exact either way and fast in the
/// usual case.
enum StoredResponseCoding {
    private enum Form: UInt8 {
        case rebuilt = 0
        case json = 1
    }

    static func encode(_ stored: StoredResponse, into writer: inout BinaryWriter) {
        // Key.
        if CacheKey(method: stored.key.method, uri: stored.key.uri) == stored.key {
            writer.write(Form.rebuilt.rawValue)
            writer.write(stored.key.method)
            writer.write(stored.key.uri)
        } else {
            writer.write(Form.json.rawValue)
            writer.write(blob: json(stored.key))
        }
        // Vary key.
        let varyKey = stored.varyKey
        if rebuildVaryKey(isWildcard: varyKey.isWildcard, fields: varyKey.fields.map { ($0.name, $0.value) }) == varyKey {
            writer.write(Form.rebuilt.rawValue)
            writer.write(varyKey.isWildcard)
            writer.write(UInt32(varyKey.fields.count))
            for field in varyKey.fields {
                writer.write(field.name)
                writer.write(field.value)
            }
        } else {
            writer.write(Form.json.rawValue)
            writer.write(blob: json(varyKey))
        }
        // Response.
        writer.write(UInt16(stored.response.status.code))
        writer.write(stored.response.status.reasonPhrase)
        writer.write(UInt32(stored.response.headerFields.count))
        for field in stored.response.headerFields {
            writer.write(field.name.rawName)
            writer.write(field.value)
        }
        writer.write(stored.requestTime)
        writer.write(stored.responseTime)
    }

    /// Decodes a stored response. When the stored key equals `expectedKey` (the key being
    /// looked up), that value is used as is, sparing a re-normalisation of the URI.
    static func decode(_ reader: inout BinaryReader, expectedKey: CacheKey? = nil) throws(BinaryReader.Failure) -> StoredResponse {
        let key: CacheKey
        switch try form(&reader) {
        case .rebuilt:
            let method = try reader.readString()
            let uri = try reader.readString()
            if let expectedKey, expectedKey.method == method, expectedKey.uri == uri {
                key = expectedKey
            } else if let rebuilt = CacheKey(method: method, uri: uri) {
                key = rebuilt
            } else {
                throw BinaryReader.Failure(description: "stored key \"\(method) \(uri)\" is not a cache key")
            }
        case .json:
            key = try fromJSON(CacheKey.self, try reader.readBlob())
        }
        let varyKey: VaryKey
        switch try form(&reader) {
        case .rebuilt:
            let isWildcard = try reader.readBool()
            let count = Int(try reader.readUInt32())
            guard count <= reader.remaining else { throw BinaryReader.Failure(description: "Vary field count \(count) too large") }
            var fields: [(String, String?)] = []
            fields.reserveCapacity(count)
            for _ in 0..<count { fields.append((try reader.readString(), try reader.readOptionalString())) }
            varyKey = rebuildVaryKey(isWildcard: isWildcard, fields: fields)
        case .json:
            varyKey = try fromJSON(VaryKey.self, try reader.readBlob())
        }
        let code = Int(try reader.readUInt16())
        guard (100...999).contains(code) else { throw BinaryReader.Failure(description: "status \(code) out of range") }
        let reason = try reader.readString()
        let fieldCount = Int(try reader.readUInt32())
        guard fieldCount <= reader.remaining else { throw BinaryReader.Failure(description: "field count \(fieldCount) too large") }
        var fields = HTTPFields()
        fields.reserveCapacity(fieldCount)
        for _ in 0..<fieldCount {
            let rawName = try reader.readString()
            let value = try reader.readString()
            guard let name = HTTPField.Name(rawName) else {
                throw BinaryReader.Failure(description: "invalid field name \"\(rawName)\"")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        let requestTime = try reader.readDate()
        let responseTime = try reader.readDate()
        let response = HTTPResponse(status: HTTPResponse.Status(code: code, reasonPhrase: reason), headerFields: fields)
        return StoredResponse(
            key: key, response: response, requestTime: requestTime, responseTime: responseTime, varyKey: varyKey)
    }

    // MARK: Vary key

    /// A Vary key with these selecting fields, made through the public initialiser: a response
    /// that varies on the names, and a request that carries the values.
    static func rebuildVaryKey(isWildcard: Bool, fields: [(name: String, value: String?)]) -> VaryKey {
        if isWildcard { return VaryKey(responseHeaders: [.vary: "*"], requestHeaders: [:]) }
        if fields.isEmpty { return .none }
        var response = HTTPFields()
        var request = HTTPFields()
        for (name, value) in fields {
            guard let fieldName = HTTPField.Name(name) else { continue }
            response.append(HTTPField(name: .vary, value: name))
            if let value { request.append(HTTPField(name: fieldName, value: value)) }
        }
        return VaryKey(responseHeaders: response, requestHeaders: request)
    }

    // MARK: JSON fallback

    private static func form(_ reader: inout BinaryReader) throws(BinaryReader.Failure) -> Form {
        let raw = try reader.readUInt8()
        guard let form = Form(rawValue: raw) else { throw BinaryReader.Failure(description: "unknown form \(raw)") }
        return form
    }

    private static func json(_ value: some Encodable) -> [UInt8] {
        // Encoding plain structs of strings cannot fail; an empty blob would fail to decode
        // and so be reported as corrupt rather than served wrong.
        (try? Array(JSONEncoder().encode(value))) ?? []
    }

    private static func fromJSON<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(BinaryReader.Failure) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw BinaryReader.Failure(description: "invalid \(type) JSON: \(error)")
        }
    }
}
