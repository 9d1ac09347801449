import Foundation
import Testing

/// Every end-to-end test, one at a time: each starts the real `cachescope` (in tmux or on
/// pipes), and a 2-core CI machine is slow enough with one of them running. Every suite that
/// spawns the binary is nested in this one (`extension EndToEndTests`), so `.serialized` holds
/// for all of them, also when this target runs on its own in parallel.
@Suite("cachescope end to end", .serialized, .timeLimit(.minutes(10)))
struct EndToEndTests {
    @Test("under CI=true tmux is installed, so the terminal tests run rather than being skipped", .enabled(if: CI.isOn))
    func tmuxOnCI() {
        #expect(TmuxSession.isAvailable, "tmux is not installed; .ci/run installs it (apt-get install tmux)")
    }
}

/// Whether this run is CI's (`CI=true`), where a missing tool is a failure, not a reason to skip.
enum CI {
    static var isOn: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }
}

extension Trait where Self == ConditionTrait {
    /// For tests that drive the binary in tmux. Without tmux they are skipped on a developer's
    /// machine; under `CI=true` they run and fail, naming the missing tmux.
    static var needsTmux: Self {
        .enabled(if: TmuxSession.isAvailable || CI.isOn, "tmux is not installed")
    }
}
