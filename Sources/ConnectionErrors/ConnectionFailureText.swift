import Foundation
import NIOCore
import NIOPosix

/// What a failed connection's error says, in the words a user reads after "cannot connect to
/// URL:" (an origin) or "cannot reach the shared tier at URL:" (PostgreSQL): the system's
/// reason (`connection refused`, `network is unreachable`) rather than SwiftNIO's description
/// of the call that noticed it ("connection reset (error set): …
/// (errno: 111)").
package enum ConnectionFailureText {
    /// `error`'s reason: for a system call's error, `strerror` of its `errno`, lower-cased;
    /// for a failed connection to a host's addresses, the first address's reason (each
    /// address's when they differ), or why the name did not resolve; otherwise the error's
    /// own description.
    package static func describe(_ error: any Error) -> String {
        switch error {
        case let error as IOError:
            return reason(errno: error.errnoCode)
        case let error as NIOConnectionError:
            let reasons = error.connectionErrors.map { describe($0.error) }
            let distinct = reasons.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if distinct.count == 1 { return distinct[0] }
            if !distinct.isEmpty {
                return zip(error.connectionErrors, reasons).map { "\($0.target): \($1)" }.joined(separator: "; ")
            }
            return error.dnsAError.map(describe) ?? error.dnsAAAAError.map(describe) ?? "\(error.host) has no address"
        case let error as SocketAddressError.UnknownHost:
            return "unknown host \(error.host): " + startingLowerCase(error.errorDescription)
        case ChannelError.connectTimeout(let timeout):
            return "no answer within \(seconds(nanoseconds: timeout.nanoseconds))"
        default:
            return String(describing: error)
        }
    }

    /// A wait in seconds, to the hundredth (a deadline's remainder is no round number):
    /// `1.96 seconds`, `1.5 seconds`, `1 second`. At least 0.01 for any wait at all: a
    /// deadline's last few milliseconds are not "0".
    package static func seconds(nanoseconds: Int64) -> String {
        let hundredths = nanoseconds > 0 ? max(1, (Double(nanoseconds) / 1e7).rounded()) : 0
        if hundredths == 100 { return "1 second" }
        return (hundredths.truncatingRemainder(dividingBy: 100) == 0 ? "\(Int(hundredths / 100))" : "\(hundredths / 100)") + " seconds"
    }

    /// The system's text for `errno`, starting lower-case ("connection refused").
    package static func reason(errno code: CInt) -> String {
        guard let text = strerror(code).map({ String(cString: $0) }), !text.isEmpty else { return "errno \(code)" }
        return startingLowerCase(text)
    }

    /// The system's sentence as the tail of ours: "Connection refused" → "connection refused".
    private static func startingLowerCase(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}
