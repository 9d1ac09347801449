import Crypto

/// A `SymmetricKey` that may cross concurrency domains.
///
/// `@unchecked`: a `SymmetricKey` is immutable once made (its secure storage is written only
/// by its initialiser), so sharing it is safe; swift-crypto 3.x just does not mark it
/// `Sendable`.
struct SendableKey: @unchecked Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) {
        self.key = key
    }
}
