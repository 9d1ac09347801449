import Foundation
import HTTPCaching
import HTTPTypes

/// The binary form of a ``StoredResponse``: key, Vary key, status, header fields and times.
///
/// `CacheKey` has no public memberwise initialiser, so it is rebuilt through
/// `CacheKey(method:uri:)` (which re-normalises an already normal URI); the writer checks that
/// the rebuild gives back an equal value and otherwise stores the JSON form (its `Codable`
/// conformance) instead, so decoding is exact either way and fast in the usual case.
///
/// A `VaryKey` is written as its fields and read back exactly as written, through its
/// package initialiser — never normalised again. The entry's file name and index row are
/// derived from the key's signature, so a key made under an earlier normalisation must keep
/// it: normalising it anew could give a signature that names another file. (Such a key may
/// then fail to match a request it matched before, once: the response is fetched and stored
/// under the new key.) Files whose Vary key was written as JSON (an earlier writer's
/// fallback) still read.
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
        // Vary key: its fields, read back as they are.
        let varyKey = stored.varyKey
        writer.write(Form.rebuilt.rawValue)
        writer.write(varyKey.isWildcard)
        writer.write(UInt32(varyKey.fields.count))
        for field in varyKey.fields {
            writer.write(field.name)
            writer.write(field.value)
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
            var fields: [VaryKey.Field] = []
            fields.reserveCapacity(count)
            for _ in 0..<count { fields.append(VaryKey.Field(name: try reader.readString(), value: try reader.readOptionalString())) }
            varyKey = VaryKey(fields: fields, isWildcard: isWildcard)
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
