/// Why a ``ResponseStore`` could not be opened or an encryption key could not be used. Each
/// message names the path concerned and says what to do.
public enum CacheStoreError: Error, CustomStringConvertible, Equatable {
    /// The key file does not exist.
    case keyFileMissing(path: String)
    /// The key file exists but could not be read.
    case keyFileUnreadable(path: String, reason: String)
    /// A key (given as bytes, or read from a file) is not 32 bytes.
    case invalidKeyLength(source: String, length: Int)
    /// The index was written with another encryption key.
    case wrongEncryptionKey(path: String)
    /// The namespace was written encrypted and opened without a key, or the other way round.
    case encryptionMismatch(path: String, storeIsEncrypted: Bool)
    /// The index was written by a newer or unknown format.
    case incompatibleIndex(path: String, found: String)
    /// A namespace's configuration cannot be used.
    case invalidNamespace(name: String, reason: String)
    /// Another open store (in this or another process) uses the namespace directory.
    case directoryInUse(path: String)
    /// The configuration itself cannot be used.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .keyFileMissing(let path):
            return "encryption key file \(path) does not exist; create it with 32 random bytes (e.g. `head -c 32 /dev/urandom > \(path) && chmod 600 \(path)`) or give the key as bytes"
        case .keyFileUnreadable(let path, let reason):
            return "cannot read encryption key file \(path): \(reason); check that it is a readable file"
        case .invalidKeyLength(let source, let length):
            return "encryption key from \(source) has \(length) bytes; it must be 32 bytes (raw, or as 64 hex digits, or base64)"
        case .wrongEncryptionKey(let path):
            return "cannot decrypt the cache index in \(path): the encryption key does not match the one it was written with; supply the original key, or delete the directory to start an empty cache"
        case .encryptionMismatch(let path, let storeIsEncrypted):
            return storeIsEncrypted
                ? "the cache in \(path) is encrypted but no encryption key was given for its namespace; supply the key, or delete the directory to start an empty cache"
                : "the cache in \(path) was written without encryption but an encryption key was given; delete the directory to start an encrypted cache, or drop the key"
        case .incompatibleIndex(let path, let found):
            return "the cache index in \(path) has format \(found), which this version cannot read; delete the directory to start an empty cache"
        case .invalidNamespace(let name, let reason):
            return "namespace \"\(name)\": \(reason)"
        case .directoryInUse(let path):
            return "the cache directory \(path) is in use by another cache (another cachescope process, or a store this process already opened); stop that one first, or give each its own directory"
        case .invalidConfiguration(let reason):
            return "invalid cache store configuration: \(reason)"
        }
    }
}
