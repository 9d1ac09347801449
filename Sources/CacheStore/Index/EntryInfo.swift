import Foundation
import HTTPCaching
import HTTPTypes

/// The description of an entry that the listing and eviction reports need, kept in the
/// index row (`info`) so neither has to read entry files: identity, status, validators,
/// times, the age the response had when it arrived, and its tags (``SurrogateKeys``).
struct EntryInfo: Sendable, Hashable {
    let id: EntryID
    let status: Int
    let eTag: String?
    let lastModified: String?
    let requestTime: Date
    let responseTime: Date
    /// The RFC 9111 §4.2.3 corrected initial age (age at `responseTime`), in seconds.
    let initialAge: Double
    /// Its tags, from the configured tag field when it was stored.
    let tags: [String]

    init(
        id: EntryID, status: Int, eTag: String?, lastModified: String?, requestTime: Date, responseTime: Date, initialAge: Double,
        tags: [String] = []
    ) {
        self.id = id
        self.status = status
        self.eTag = eTag
        self.lastModified = lastModified
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.initialAge = initialAge
        self.tags = tags
    }

    init(_ stored: StoredResponse, tags: [String]) {
        self.init(
            id: EntryID(stored), status: stored.status, eTag: stored.response.headerFields.firstValue(of: .eTag),
            lastModified: stored.response.headerFields.firstValue(of: .lastModified), requestTime: stored.requestTime,
            responseTime: stored.responseTime,
            initialAge: CacheRules().currentAge(of: stored, now: stored.responseTime), tags: tags)
    }

    /// The HTTP age at `now`: initial age plus resident time.
    func age(at now: Date) -> Double {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    // MARK: Binary form

    /// Version 2 appends the tags (a count, then each tag); version 1, written before tags,
    /// still reads, with none.
    func encoded() -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 128 + id.key.uri.utf8.count)
        writer.write(UInt8(tags.isEmpty ? 1 : 2))
        writer.write(id.key.method)
        writer.write(id.key.uri)
        writer.write(id.varySignature)
        writer.write(UInt16(clamping: status))
        writer.write(eTag)
        writer.write(lastModified)
        writer.write(requestTime)
        writer.write(responseTime)
        writer.write(initialAge)
        if !tags.isEmpty {
            writer.write(UInt16(clamping: tags.count))
            for tag in tags.prefix(Int(UInt16.max)) { writer.write(tag) }
        }
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(BinaryReader.Failure) {
        let decoded = try BinaryReader.reading(bytes) { reader throws(BinaryReader.Failure) -> EntryInfo in
            let version = try reader.readUInt8()
            guard version == 1 || version == 2 else { throw BinaryReader.Failure(description: "unknown info version \(version)") }
            let method = try reader.readString()
            let uri = try reader.readString()
            let signature = try reader.readString()
            guard let key = CacheKey(method: method, uri: uri) else {
                throw BinaryReader.Failure(description: "stored key \"\(method) \(uri)\" is not a cache key")
            }
            let status = Int(try reader.readUInt16())
            let (eTag, lastModified) = (try reader.readOptionalString(), try reader.readOptionalString())
            let (requestTime, responseTime) = (try reader.readDate(), try reader.readDate())
            let initialAge = try reader.readDouble()
            var tags: [String] = []
            if version == 2 {
                let count = Int(try reader.readUInt16())
                for _ in 0..<count { tags.append(try reader.readString()) }
            }
            return EntryInfo(
                id: EntryID(key: key, varySignature: signature), status: status, eTag: eTag, lastModified: lastModified,
                requestTime: requestTime, responseTime: responseTime, initialAge: initialAge, tags: tags)
        }
        self = decoded
    }
}
