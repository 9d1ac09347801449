import CacheEvents
import Testing
import TerminalUI
@testable import Dashboard

/// `Space` freezes the display at the moment it is pressed: it had frozen at the last event's
/// time, so on an idle client the ages and TTLs stepped back (a hunt of 27 November).
@Suite("Freezing at the moment of Space")
struct PauseInstantTests {
    @Test("frozen after 29 s without traffic, the display shows that moment, not the last event's")
    func freezesNow() throws {
        var state = SampleSession.state()
        let lastEvent = state.traffic.clock
        state.interface.now = lastEvent + 29
        let size = TerminalSize(columns: 120, rows: 40)
        press([.character(" ")], on: &state, size: size)
        #expect(state.now == lastEvent + 29)
        let frozen = try render(state, size: size, now: lastEvent + 60).text
        #expect(frozen.contains("FROZEN \(Format.clock(lastEvent + 29))"), "\(frozen.prefix(300))")
        // The Entries view's ages and TTLs are those of the moment frozen, as the live frame had them.
        press([.character("2")], on: &state, size: size)
        var liveEntries = state
        liveEntries.resume()
        let entriesLive = try render(liveEntries, size: size, now: lastEvent + 29).text.split(separator: "\n").dropFirst(3)
        let entriesFrozen = try render(state, size: size, now: lastEvent + 60).text.split(separator: "\n").dropFirst(3)
        #expect(Array(entriesFrozen.prefix(6)) == Array(entriesLive.prefix(6)))
    }
}
