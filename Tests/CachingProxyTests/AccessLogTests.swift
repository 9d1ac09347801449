@testable import CachingProxy
import Foundation
import Testing

/// The access log's pieces without sockets: the line's date and escaping, and the buffer that
/// carries lines to standard output in batches.
@Suite("The access log")
struct AccessLogTests {
    @Test("the common log date is UTC, day/month/year:time, zero-padded")
    func commonLogDate() {
        // 2026-11-05 07:08:09 UTC
        #expect(ProxyAccessRecord.commonLogDate(Date(timeIntervalSince1970: 1_793_862_489)) == "05/Nov/2026:07:08:09 +0000")
        #expect(ProxyAccessRecord.commonLogDate(Date(timeIntervalSince1970: 0)) == "01/Jan/1970:00:00:00 +0000")
        #expect(ProxyAccessRecord.commonLogDate(Date(timeIntervalSince1970: 951_868_799.9)) == "29/Feb/2000:23:59:59 +0000")
    }

    @Test("quotes, backslashes and control characters are escaped; other text is kept as it is")
    func escaping() {
        #expect(ProxyAccessRecord.escaped("max-age=60, Vary mismatch: Accept-Language") == "max-age=60, Vary mismatch: Accept-Language")
        #expect(ProxyAccessRecord.escaped("a\"b\\c\u{1}d\u{7F}é") == "a\\\"b\\\\c\\x01d\\x7fé")
    }

    @Test("the buffer hands out every line once, in order, and counts what it had no room for")
    func buffer() {
        let buffer = AccessLogBuffer(capacity: 16)
        #expect(buffer.take().isEmpty)
        buffer.append("one")
        buffer.append("two")
        #expect(buffer.take() == "one\ntwo\n")
        #expect(buffer.take().isEmpty)
        buffer.append("0123456789")
        buffer.append("0123456789")
        #expect(buffer.take() == "0123456789\n(1 access-log lines dropped: standard output fell behind)\n")
    }
}
