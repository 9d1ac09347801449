public import CacheStore
public import Foundation
public import HTTPCaching
public import HTTPTypes

/// The crash-test workload, shared by the helper (which runs it until killed) and the test
/// (which reopens the store with the same configuration and checks what survived).
///
/// Bodies are self-verifying: the body of (URI, variant, version) is a deterministic byte
/// stream derived from those three, and the version travels in the `X-Crash-Version` header,
/// so a reader can regenerate the exact body from the stored entry alone.
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

    /// The stored response of a version of a variant, and its body.
    public static func response(_ index: Int, language: String, version: UInt64, now: Date) -> (StoredResponse, [UInt8]) {
        let request = request(index, language: language)
        let body = body(uri: uri(index), language: varies(index) ? language : "", version: version)
        var fields = HTTPFields()
        fields[.cacheControl] = "max-age=3600"
        fields[.eTag] = "\"\(version)\""
        fields[HTTPField.Name("X-Crash-Version")!] = String(version)
        if varies(index) { fields[.vary] = "Accept-Language" }
        let response = HTTPResponse(status: .ok, headerFields: fields)
        let stored = StoredResponse(
            key: CacheKey(request)!, response: response, requestTime: now, responseTime: now,
            varyKey: VaryKey(responseHeaders: fields, requestHeaders: request.headerFields))
        return (stored, body)
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

    /// Why a served entry is not exactly what was stored, or `nil` when it is.
    public static func verify(_ entry: CacheEntry) -> String? {
        guard let versionText = entry.stored.response.headerFields[HTTPField.Name("X-Crash-Version")!],
            let version = UInt64(versionText)
        else { return "\(entry.id): no X-Crash-Version header" }
        let language = entry.stored.varyKey.fields.first?.value ?? ""
        let expected = body(uri: entry.stored.key.uri, language: language, version: version)
        guard entry.body == expected else {
            return "\(entry.id) version \(version): body of \(entry.body.count) bytes differs from the \(expected.count) stored"
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
