import Testing

/// Every end-to-end test, one at a time: each starts the real `cachescope` (in tmux or on
/// pipes), and a 2-core CI machine is slow enough with one of them running.
@Suite("cachescope end to end", .serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct EndToEndTests {}
