import CacheStore
import Foundation
import HTTPCaching
import Logging
import SharedTier
import Synchronization
import Testing

/// Purges from other instances are handed over as they arrive: a slow one does not hold up
/// the next.
@Suite("Shared tier: purges from other instances", .timeLimit(.minutes(2)))
struct PurgeListenerTests {
    /// What the receiving instance's observer saw, in order.
    private final class Received: Sendable {
        let scopes = Mutex<[SharedPurge.Scope]>([])

        func contains(_ scope: SharedPurge.Scope) -> Bool { scopes.withLock { $0.contains(scope) } }
    }

    private static func connect(_ tier: SharedTierConfiguration, purge: @escaping @Sendable (SharedPurge) async -> Void) async throws
        -> SharedTier
    {
        try await SharedTier.connect(
            tier, store: StoreConfiguration(), logger: Logger(label: "test"),
            observer: SharedTier.Observer(warning: { _ in }, recovered: {}, purge: purge))
    }

    @Test("a key purge reaches an instance while that instance is still carrying out a slow prefix purge")
    func slowPurgeDoesNotHoldUpTheNext() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "unused")
        let key = try #require(CacheKey(method: "GET", uri: "http://origin.test/item/1"))
        let received = Received()
        /// Whether the key purge arrived while the prefix purge was still being carried out
        /// (`nil` until the prefix purge ends).
        let overlapped = Mutex<Bool?>(nil)
        var sending = tier
        sending.instanceName = "sender"
        var receiving = tier
        receiving.instanceName = "receiver"
        let receiver = try await Self.connect(receiving) { purge in
            received.scopes.withLock { $0.append(purge.scope) }
            guard case .prefix = purge.scope else { return }
            // A prefix purge that takes long (as one listing many entries does): it ends when
            // the key purge sent after it has arrived, or after 10 s.
            let deadline = ContinuousClock.now + .seconds(10)
            while !received.contains(.key(key)), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            let arrived = received.contains(.key(key))
            overlapped.withLock { $0 = arrived }
        }
        let sender = try await Self.connect(sending) { _ in }
        #expect(await sender.purge(.prefix("http://origin.test/")) == 0)
        #expect(await sender.purge(.key(key)) == 0)
        let deadline = ContinuousClock.now + .seconds(15)
        while overlapped.withLock({ $0 }) == nil || !received.contains(.key(key)), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let scopes = received.scopes.withLock { $0 }
        #expect(scopes.count == 2 && scopes.contains(.prefix("http://origin.test/")) && scopes.contains(.key(key)), "\(scopes)")
        #expect(overlapped.withLock { $0 } == true, "the key purge waited for the prefix purge to end")
        await sender.shutdown()
        await receiver.shutdown()
    }
}
