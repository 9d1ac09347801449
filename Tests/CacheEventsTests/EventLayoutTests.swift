import CacheEvents
import Testing

/// Sessions hold millions of events (the rewind ring, a loaded log, the fleet's merged
/// buffer): an event's size is memory a user pays for per event, so a field that grows it
/// must be a decision, not an accident (docs/architecture.md, "events").
@Suite("Event layout")
struct EventLayoutTests {
    @Test("an event takes 104 bytes: rare wide payloads are boxed, and the fleet's instance index fits after the kind")
    func eventSize() {
        #expect(MemoryLayout<CacheEvent>.stride == 104)
    }
}
