public import CacheStore
public import Foundation
public import HTTPCaching
public import HTTPTypes

/// The crash-test workload, shared by the helper (which runs it until killed) and the test
/// (which reopens the store with the same configuration and checks what survived).
///
/// Bodies are self-verifying: the body of (URI, variant, version) is a deterministic byte
/// stream derived from those three, and the version travels in the `X-Crash-Version` header,
/// so a reader can regenerate the exact body from the stored entry alone. Metadata is
/// self-verifying too: `X-Crash-Time` repeats the response time (as the bits of its
/// `Double`) and `X-Crash-Retention` the retention, so headers, times, freshness and
/// retention written by one store or 304 freshen must all agree — a 304 (``freshened(_:at:)``)
/// changes every one of them and keeps the body.
public enum CrashWorkload {
    /// The fixed key of the encrypted namespace (a test key, not a secret).
    public static let keyBytes: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    /// Small capacities so the loop constantly evicts in both tiers; an encrypted namespace
    /// with its own limit beside the plain default one.
    public static func configuration(directory: URL) throws -> StoreConfiguration {
        StoreConfiguration(
            memoryCapacity: 192 << 10,
            diskCapacity: 1536 << 10,
            directory: directory,
            maximumEntryShare: 0.25,
            sweepInterval: .milliseconds(40),
            namespaces: [
                Namespace(
                    name: "secret", match: .prefix("https://secret.example/"), diskLimit: 512 << 10,
                    encryptionKey: try EncryptionKey(bytes: keyBytes))
            ])
    }

    /// The URI of key number `index` (every third one in the encrypted namespace).
    public static func uri(_ index: Int) -> String {
        index % 3 == 0 ? "https://secret.example/item/\(index)" : "https://crash.example/item/\(index)?q=\(index % 7)"
    }

    /// Keys whose responses vary on Accept-Language (two variants each).
    public static func varies(_ index: Int) -> Bool { index % 5 == 0 }

    /// The request a variant is fetched with.
    public static func request(_ index: Int, language: String) -> HTTPRequest {
        var request = HTTPRequest(method: .get, url: URL(string: uri(index))!)
        if varies(index) { request.headerFields[.acceptLanguage] = language }
        return request
    }

    static let versionField = HTTPField.Name("X-Crash-Version")!
    static let timeField = HTTPField.Name("X-Crash-Time")!
    static let retentionField = HTTPField.Name("X-Crash-Retention")!
    static let freshensField = HTTPField.Name("X-Crash-Freshens")!

    /// How long an entry stays fresh after its response time.
    public static let freshness: TimeInterval = 60

    /// The stored response of a version of a variant, and its body; `retention` is how long
    /// after `now` it may be kept (pass the same to the store as `expiresAt`).
    public static func response(
        _ index: Int, language: String, version: UInt64, now: Date, retention: TimeInterval = 3600
    ) -> (StoredResponse, [UInt8]) {
        let request = request(index, language: language)
        let body = body(uri: uri(index), language: varies(index) ? language : "", version: version)
        var fields = HTTPFields()
        fields[.cacheControl] = "max-age=3600"
        fields[.eTag] = "\"\(version)\""
        fields[versionField] = String(version)
        fields[timeField] = String(now.timeIntervalSinceReferenceDate.bitPattern)
        fields[retentionField] = String(retention)
        fields[freshensField] = "0"
        if varies(index) { fields[.vary] = "Accept-Language" }
        let response = HTTPResponse(status: .ok, headerFields: fields)
        let stored = StoredResponse(
            key: CacheKey(request)!, response: response, requestTime: now, responseTime: now,
            varyKey: VaryKey(responseHeaders: fields, requestHeaders: request.headerFields))
        return (stored, body)
    }

    /// What a 304 at `now` makes of a stored response: the same variant, version and
    /// validator (so the same body), with a new response time, retention and freshen count.
    public static func freshened(_ stored: StoredResponse, at now: Date, retention: TimeInterval = 3600) -> StoredResponse {
        var fields = stored.response.headerFields
        let count = fields[freshensField].flatMap { Int($0) } ?? 0
        fields[timeField] = String(now.timeIntervalSinceReferenceDate.bitPattern)
        fields[retentionField] = String(retention)
        fields[freshensField] = String(count + 1)
        return StoredResponse(
            key: stored.key, response: HTTPResponse(status: stored.response.status, headerFields: fields), requestTime: now,
            responseTime: now, varyKey: stored.varyKey)
    }

    /// The deterministic body: 200 to 30,000 bytes of a SplitMix64 stream seeded from the
    /// URI, language and version.
    public static func body(uri: String, language: String, version: UInt64) -> [UInt8] {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (uri + "|" + language).utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var state = seed ^ (version &* 0x9e37_79b9_7f4a_7c15)
        let count = 200 + Int(next(&state) % 29_800)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            var word = next(&state)
            for _ in 0..<8 where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return bytes
    }

    /// Why a served entry is not exactly what was stored, or `nil` when it is: the body must
    /// be the one of the version its headers name, and its times, freshness and retention
    /// those of the same store or freshen as its headers (never a mix of two).
    public static func verify(_ entry: CacheEntry) -> String? {
        let fields = entry.stored.response.headerFields
        guard let version = fields[versionField].flatMap({ UInt64($0) }) else { return "\(entry.id): no X-Crash-Version header" }
        let language = entry.stored.varyKey.fields.first?.value ?? ""
        let expected = body(uri: entry.stored.key.uri, language: language, version: version)
        guard entry.body == expected else {
            return "\(entry.id) version \(version): body of \(entry.body.count) bytes differs from the \(expected.count) stored"
        }
        guard let bits = fields[timeField].flatMap({ UInt64($0) }), let retention = fields[retentionField].flatMap({ Double($0) })
        else { return "\(entry.id): no X-Crash-Time or X-Crash-Retention header" }
        let time = Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
        let freshens = fields[freshensField] ?? "?"
        guard entry.stored.responseTime == time, entry.stored.requestTime == time else {
            return "\(entry.id) (freshen \(freshens)): response time \(entry.stored.responseTime) is not the \(time) its headers say"
        }
        guard entry.metadata.freshUntil == time.addingTimeInterval(freshness),
            entry.metadata.expiresAt == time.addingTimeInterval(retention)
        else {
            return "\(entry.id) (freshen \(freshens)): fresh until \(String(describing: entry.metadata.freshUntil)), "
                + "expires \(String(describing: entry.metadata.expiresAt)); its headers say \(time) + \(freshness) s / \(retention) s"
        }
        return nil
    }

    /// SplitMix64.
    public static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
