#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// Why not `Synchronization.Mutex`: on Linux its lock lives in the Synchronization runtime
/// (futex calls the sanitizer does not intercept), so ThreadSanitizer cannot see it and
/// reports every access it guards as a race — even in a ten-line program — which would make
/// `swift test --sanitize=thread` useless for this target. TSan intercepts pthread mutexes.
/// The benchmark measures both locks (and an actor): an uncontended lock and unlock costs
/// about the same (docs/store.md has the figures).
///
/// `@unchecked Sendable`: every access to `value` happens inside ``withLock(_:)``, between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`.
@_spi(Benchmarks)
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    /// A lock guarding `value`.
    public init(_ initialValue: Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
