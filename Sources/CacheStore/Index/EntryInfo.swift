import Foundation
import HTTPCaching
import HTTPTypes

/// The description of an entry that the listing and eviction reports need, kept in the
/// index row (`info`) so neither has to read entry files: identity, status, validators,
/// times and the age the response had when it arrived.
struct EntryInfo: Sendable, Hashable {
    let id: EntryID
    let status: Int
    let eTag: String?
    let lastModified: String?
    let requestTime: Date
    let responseTime: Date
    /// The RFC 9111 §4.2.3 corrected initial age (age at `responseTime`), in seconds.
    let initialAge: Double

    init(id: EntryID, status: Int, eTag: String?, lastModified: String?, requestTime: Date, responseTime: Date, initialAge: Double) {
        self.id = id
        self.status = status
        self.eTag = eTag
        self.lastModified = lastModified
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.initialAge = initialAge
    }

    init(_ stored: StoredResponse) {
        self.init(
            id: EntryID(stored), status: stored.status, eTag: stored.response.headerFields.firstValue(of: .eTag),
            lastModified: stored.response.headerFields.firstValue(of: .lastModified), requestTime: stored.requestTime,
            responseTime: stored.responseTime,
            initialAge: CacheRules().currentAge(of: stored, now: stored.responseTime))
    }

    /// The HTTP age at `now`: initial age plus resident time.
    func age(at now: Date) -> Double {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    // MARK: Binary form

    func encoded() -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 128 + id.key.uri.utf8.count)
        writer.write(UInt8(1))
        writer.write(id.key.method)
        writer.write(id.key.uri)
        writer.write(id.varySignature)
        writer.write(UInt16(clamping: status))
        writer.write(eTag)
        writer.write(lastModified)
        writer.write(requestTime)
        writer.write(responseTime)
        writer.write(initialAge)
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(BinaryReader.Failure) {
        let decoded = try BinaryReader.reading(bytes) { reader throws(BinaryReader.Failure) -> EntryInfo in
            guard try reader.readUInt8() == 1 else { throw BinaryReader.Failure(description: "unknown info version") }
            let method = try reader.readString()
            let uri = try reader.readString()
            let signature = try reader.readString()
            guard let key = CacheKey(method: method, uri: uri) else {
                throw BinaryReader.Failure(description: "stored key \"\(method) \(uri)\" is not a cache key")
            }
            return EntryInfo(
                id: EntryID(key: key, varySignature: signature), status: Int(try reader.readUInt16()),
                eTag: try reader.readOptionalString(), lastModified: try reader.readOptionalString(),
                requestTime: try reader.readDate(), responseTime: try reader.readDate(),
                initialAge: try reader.readDouble())
        }
        self = decoded
    }
}
