#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// What a signal's disposition is: asked before taking a signal over, so that one the user
/// had ignored (`nohup` ignores SIGHUP) stays ignored.
package enum SignalDisposition {
    /// Whether `action` ignores its signal (`SIG_IGN`).
    package static func isIgnored(_ action: sigaction) -> Bool {
        #if os(Linux)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        guard let handler else { return false }   // nil is SIG_DFL
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
