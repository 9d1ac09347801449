@testable import CachingClient
import NIOCore
import Testing

/// Whose time an upload's timeout is: waiting for the sender's next part is the sender's; the
/// transport not asking for one (an origin that stopped reading) or no answer after the body is
/// the origin's (a review of 27 November: an origin that stopped reading got its client a 408).
@Suite("Upload watch: whose time ran out", .timeLimit(.minutes(1)))
struct UploadWatchTests {
    @Test("nobody asks for the body (an origin that stopped reading): the origin's time")
    func notAsked() async {
        let watch = UploadWatch()
        _ = watch.watching(BodyStream(complete: [ByteBuffer(string: "x")]))
        #expect(await watch.expiry(after: .milliseconds(100)) == .originTooSlow)
    }

    @Test("the transport waits for a part that does not come: the sender's time")
    func senderStalls() async {
        let watch = UploadWatch()
        let (parts, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        let body = watch.watching(BodyStream(parts: parts))
        let reader = Task {
            var iterator = body.makeAsyncIterator()
            _ = try? await iterator.next()
        }
        #expect(await watch.expiry(after: .milliseconds(100)) == .senderStalled)
        continuation.finish()
        await reader.value
    }

    @Test("the whole body taken and no answer: the origin's time")
    func sentThenSilence() async throws {
        let watch = UploadWatch()
        let body = watch.watching(BodyStream(complete: [ByteBuffer(string: "abc")]))
        for try await _ in body {}
        #expect(await watch.expiry(after: .milliseconds(100)) == .originTooSlow)
    }
}
