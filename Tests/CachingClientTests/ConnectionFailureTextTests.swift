import ConnectionErrors
import Foundation
import NIOCore
import Testing

/// A failed connection reads as the system's reason, not as SwiftNIO's account of the call.
@Suite("Connection failures in words")
struct ConnectionFailureTextTests {
    @Test("a system call's error is its errno's text, lower-cased", arguments: [
        (ECONNREFUSED, "connection refused"), (ENETUNREACH, "network is unreachable"), (ETIMEDOUT, "connection timed out"),
    ])
    func systemCallError(code: Int32, reason: String) {
        #expect(ConnectionFailureText.describe(IOError(errnoCode: code, reason: "connection reset (error set)")) == reason)
    }

    @Test("a connect timeout says how long it waited; anything else keeps its own description")
    func otherErrors() {
        #expect(ConnectionFailureText.describe(ChannelError.connectTimeout(.milliseconds(1_500))) == "no answer within 1.5 seconds")
        // A deadline's remainder, to the hundredth; whole seconds without a fraction.
        #expect(ConnectionFailureText.describe(ChannelError.connectTimeout(.nanoseconds(1_958_549_414))) == "no answer within 1.96 seconds")
        #expect(ConnectionFailureText.describe(ChannelError.connectTimeout(.seconds(2))) == "no answer within 2 seconds")
        #expect(ConnectionFailureText.describe(ChannelError.connectTimeout(.milliseconds(4))) == "no answer within 0.01 seconds")
        #expect(ConnectionFailureText.describe(CancellationError()) == String(describing: CancellationError()))
    }
}
