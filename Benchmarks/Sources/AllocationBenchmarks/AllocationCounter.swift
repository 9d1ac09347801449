import BenchmarkSupport
import Foundation
import MallocInterposerSwift

/// The one file that speaks to the malloc interposer (ordo-one/malloc-interposer, the counter
/// behind package-benchmark's `MallocInterposer` trait). It counts every `malloc`, `calloc`,
/// `realloc` and `posix_memalign` of the whole process: every thread's, so an async path's
/// allocations count wherever its tasks and NIO's event loops ran them. Nothing else is in
/// flight while a path is counted (the origin runs in a process of its own), so the count is
/// the path's.
enum AllocationCounter {
    /// Where the interposer library is: beside this executable, in the same build folder.
    static var libraryPath: String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("libMallocInterposerSwift.so").path
    }

    /// Starts counting, after checking that the interposer sees this process's mallocs (on
    /// Linux it must be preloaded: see ``preloadIfNeeded()``).
    static func start() -> Bool {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        let before = allocations
        // Built inside Foundation, where the optimizer cannot remove the allocations (it
        // removes a plain malloc/free pair).
        let environment = ProcessInfo.processInfo.environment
        return allocations > before + min(environment.count, 1) - 1
    }

    /// Stops counting.
    static func stop() {
        MallocInterposerSwift.unhook()
    }

    /// Allocations counted since ``start()``, on every thread.
    static var allocations: Int { MallocInterposerSwift.getStatistics().mallocCount }

    /// Runs `body` (`operations` operations) `warmup` times uncounted-for, then `batches` times,
    /// and returns the allocations per operation of each batch. The warm-up leaves one-time
    /// costs (caches, pools, buffers grown to their working size) out of the figure.
    static func measure(
        _ name: String, batches: Int = 11, operations: Int, warmup: Int = 2, _ body: () throws -> Void
    ) rethrows -> AllocationCount {
        for _ in 0..<warmup { try body() }
        var perOperation: [Double] = []
        perOperation.reserveCapacity(batches)
        for _ in 0..<batches {
            let before = allocations
            try body()
            perOperation.append(Double(allocations - before) / Double(operations))
        }
        return AllocationCount(name: name, perOperation: perOperation)
    }

    /// The async variant of ``measure(_:batches:operations:warmup:_:)``.
    static func measureAsync(
        _ name: String, batches: Int = 11, operations: Int, warmup: Int = 2, _ body: () async throws -> Void
    ) async rethrows -> AllocationCount {
        for _ in 0..<warmup { try await body() }
        var perOperation: [Double] = []
        perOperation.reserveCapacity(batches)
        for _ in 0..<batches {
            let before = allocations
            try await body()
            perOperation.append(Double(allocations - before) / Double(operations))
        }
        return AllocationCount(name: name, perOperation: perOperation)
    }
}
