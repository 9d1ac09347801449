@testable import CacheStore
import Crypto
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

@Suite("Encryption at rest", .timeLimit(.minutes(2)))
struct EncryptionTests {
    static let key = try! EncryptionKey(bytes: (0..<32).map { UInt8($0) })
    static let marker = "very-private-path-marker"

    func encryptedFactory(_ directory: TemporaryDirectory, key: EncryptionKey? = key) -> StoreFactory {
        StoreFactory(directory: directory, defaultNamespace: Namespace(name: "default", match: .all, encryptionKey: key))
    }

    @Test("bodies, headers and the index's URLs are not readable on disk, and file names are keyed")
    func nothingInTheClear() async throws {
        let directory = TemporaryDirectory()
        let factory = encryptedFactory(directory)
        let store = try factory.open()
        let uri = "https://bank.example/\(Self.marker)/statement"
        let body = Array("account balance: 1234.56 \(Self.marker)".utf8)
        store.store(uri, body: body, headers: [HTTPField.Name("X-Secret")!: "header-\(Self.marker)"], now: factory.clock.now)
        await store.flush()
        var bytes: [UInt8] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            var isDirectory: ObjCBool = false
            let path = directory.path + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                bytes += Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        #expect(!bytes.isEmpty)
        for secret in [Self.marker, "bank.example", "account balance", "X-Secret"] {
            #expect(!contains(bytes, Array(secret.utf8)), "\(secret) found on disk")
        }
        // Names are not the plain SHA-256 that a dictionary of URLs could reverse.
        let key = Fixtures.key(uri)
        let plainName = SHA256.hash(data: Array("v1".utf8) + [0] + Array("entry".utf8) + [0] + Array(key.method.utf8) + [0] + Array(key.uri.utf8) + [0])
            .map { String(format: "%02x", $0) }.joined()
        let names = directory.entryFiles().map { ($0 as NSString).lastPathComponent }
        #expect(names.count == 1)
        #expect(names.first != plainName)
        await store.close()

        let reopened = try factory.open()
        #expect(await reopened.entry(uri)?.body == body)
        #expect(await reopened.entries().first?.uri == uri)
        await reopened.close()
    }

    @Test("a wrong key is a clear error naming the index, not garbage")
    func wrongKey() async throws {
        let directory = TemporaryDirectory()
        let store = try encryptedFactory(directory).open()
        store.store("https://example.com/a", body: [1], now: Fixtures.epoch)
        await store.close()
        let other = try EncryptionKey(bytes: [UInt8](repeating: 9, count: 32))
        do {
            _ = try encryptedFactory(directory, key: other).open()
            Issue.record("opened with the wrong key")
        } catch {
            #expect(error == .wrongEncryptionKey(path: directory.namespace() + "/index.sqlite"))
            #expect(error.description.contains("the encryption key does not match the one it was written with"))
            #expect(error.description.contains(directory.namespace()))
        }
    }

    @Test("opening an encrypted cache without its key, or a plain one with a key, is refused")
    func mismatch() async throws {
        let encrypted = TemporaryDirectory()
        await (try encryptedFactory(encrypted).open()).close()
        #expect(throws: CacheStoreError.encryptionMismatch(path: encrypted.namespace(), storeIsEncrypted: true)) {
            try encryptedFactory(encrypted, key: nil).open()
        }
        let plain = TemporaryDirectory()
        await (try encryptedFactory(plain, key: nil).open()).close()
        #expect(throws: CacheStoreError.encryptionMismatch(path: plain.namespace(), storeIsEncrypted: false)) {
            try encryptedFactory(plain).open()
        }
    }

    @Test("key files: raw, hex and base64 give the same key; missing or short files are clear errors")
    func keyFiles() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let bytes = (0..<32).map { UInt8($0 * 3) }
        let raw = directory.path + "/raw.key", hex = directory.path + "/hex.key", base64 = directory.path + "/b64.key"
        try Data(bytes).write(to: URL(fileURLWithPath: raw))
        try Data((bytes.map { String(format: "%02x", $0) }.joined() + "\n").utf8).write(to: URL(fileURLWithPath: hex))
        try Data(Data(bytes).base64EncodedString().utf8).write(to: URL(fileURLWithPath: base64))
        for path in [raw, hex, base64] { #expect(try EncryptionKey(contentsOfFile: path).bytes == bytes) }

        let missing = directory.path + "/missing.key"
        #expect(throws: CacheStoreError.keyFileMissing(path: missing)) { try EncryptionKey(contentsOfFile: missing) }
        let short = directory.path + "/short.key"
        try Data([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).write(to: URL(fileURLWithPath: short))
        #expect(throws: CacheStoreError.invalidKeyLength(source: short, length: 10)) { try EncryptionKey(contentsOfFile: short) }
        #expect(throws: CacheStoreError.invalidKeyLength(source: "the given bytes", length: 16)) {
            try EncryptionKey(bytes: [UInt8](repeating: 0, count: 16))
        }
        #expect(CacheStoreError.keyFileMissing(path: missing).description.contains(missing))
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
