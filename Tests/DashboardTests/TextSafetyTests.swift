import HTTPTypes
import CacheEvents
import SessionLog
import Testing
import TerminalUI
@testable import Dashboard
import FoundationEssentials
import Foundation
import HTTPCaching

/// Untrusted text is shown escaped, wide and combining characters keep the columns aligned, and
/// colour is never the only signal.
@Suite("Text safety, Unicode widths and colour-free signals")
struct TextSafetyTests {
    static let size = TerminalSize(columns: 120, rows: 40)

    /// Every view of the sample session, as grids.
    static func allViews() throws -> [(String, Grid)] {
        var frames: [(String, Grid)] = []
        let scripts: [(String, [Key])] = [
            ("requests", []), ("entries", [.character("2")]), ("stats", [.character("3")]), ("help", [.character("?")]),
            ("hostile request detail", [.down, .down, .enter]), ("hostile entry detail", [.character("2"), .down, .enter]),
        ]
        for (name, keys) in scripts {
            var state = SampleSession.state()
            press(keys, on: &state, size: size)
            frames.append((name, try render(state, size: size)))
        }
        return frames
    }

    @Test("No control character, escape or replacement character reaches any view")
    func noControls() throws {
        for (name, grid) in try Self.allViews() {
            for cell in grid.cells {
                let scalar = cell.character.unicodeScalars.first!
                #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value), "\(name): control \(scalar.value)")
                #expect(cell.character != "\u{FFFD}", "\(name): a control was replaced instead of escaped")
            }
        }
    }

    @Test("Escape sequences in URLs and header values are shown escaped")
    func escapedText() throws {
        var state = SampleSession.state()
        press([.down, .down, .enter], on: &state, size: Self.size)
        let text = try render(state, size: Self.size).text
        #expect(text.contains("GET http://127.0.0.1:8080/evil\\e[2J?q=東京"))
        // Header values travel as HTTPFields, which replace control characters before anything
        // can show them: the escape sequence never reaches the screen, not even escaped.
        #expect(text.contains("  X-Evil: a ]0;pwned b"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        var bidi = DashboardState()
        bidi.apply(CacheEvent(seq: 1, time: 0, requestID: 1, kind: .requestStarted(RequestStarted(
            method: "GET", url: "http://h/\u{202E}gnp.exe", cacheKey: "GET http://h/\u{202E}gnp.exe", policy: "protocol", headers: [:]))))
        #expect(try render(bidi, size: Self.size).text.contains("h/\\u{202e}gnp.exe"))
    }

    @Test("Wide and combining characters keep every later column aligned")
    func alignment() throws {
        var state = SampleSession.state()
        var seq: UInt64 = 1000
        for path in ["/caf\u{0065}\u{0301}", "/日本語/テスト", "/👨‍👩‍👧"] {
            seq += 1
            state.apply(CacheEvent(seq: seq, time: 11.5, requestID: seq, kind: .requestStarted(RequestStarted(
                method: "GET", url: SampleSession.origin + path, cacheKey: "GET " + SampleSession.origin + path, policy: "protocol", headers: [:]))))
            state.apply(CacheEvent(seq: seq, time: 11.6, requestID: seq, kind: .requestFinished(RequestFinished(
                status: 200, latency: 0.1, bytesFromNetwork: 1, bytesFromCache: 0, outcome: .miss, reason: "not in cache"))))
        }
        let grid = try render(state, size: Self.size)
        // The LATENCY column's right edge: the column of the last digit of "ms" per row.
        var outcomeColumns = Set<Int>()
        for y in 7..<(7 + 14) {
            let row = Array(grid.row(y))
            if let x = row.firstIndex(where: { "✓~↻±✗⇢!…".contains($0.character) }) { outcomeColumns.insert(x) }
        }
        #expect(outcomeColumns.count == 1, "the OUTCOME column starts at \(outcomeColumns.sorted())")
        let text = grid.text
        #expect(text.contains(" /cafe\u{0301} "))
        #expect(text.contains(" /日本語/テスト "))
    }

    @Test("Every outcome has its own glyph and word, so mono shows what colour shows")
    func monoGlyphs() throws {
        let state = SampleSession.state()
        let mono = try render(state, size: Self.size, theme: "mono")
        let colour = try render(state, size: Self.size, theme: "default")
        // Only the sparkline row (line 5) differs: its glyphs are ASCII without colour.
        var monoLines = mono.text.replacingOccurrences(of: "(mono)", with: "(default)").components(separatedBy: "\n")
        var colourLines = colour.text.components(separatedBy: "\n")
        #expect(monoLines.remove(at: 4).hasPrefix("req/s ") && colourLines.remove(at: 4).hasPrefix("req/s "))
        #expect(monoLines == colourLines, "layout does not depend on colours")
        let header = mono.text.components(separatedBy: "\n")[1]
        #expect(header == "10 requests  ✓ hit 1  ~ stale 1  ↻ revalidated 1  ± modified 1  ✗ miss 4  ⇢ bypass 1  ! error 1  ⇉ coalesced 1")
        let glyphs = Set(["✓", "~", "↻", "±", "✗", "⇢", "!"])
        #expect(glyphs.count == 7)
        let rows = mono.text.components(separatedBy: "\n")[7...17].joined()
        for label in ["✓ HIT", "~ STALE", "↻ REVALIDATED", "± MODIFIED", "✗ MISS", "⇢ BYPASS", "! ERROR"] {
            #expect(rows.contains(label), "no \(label) row")
        }
    }

    @Test("TTL states read without colour: a sign for expired, ! for expiring")
    func ttlWithoutColour() throws {
        var state = SampleSession.state()
        press([.character("2")], on: &state, size: Self.size)
        let text = try render(state, size: Self.size, now: 55).text
        // At t=55 /rotating (fresh until t=9.0075) has been stale for 45.99 s: its TTL rounded
        // down, as a fresh one is, so the first second past it shows `-1s`, never `-0s`.
        #expect(text.contains("-46s stale"))
        let justStale = try render(state, size: Self.size, now: 9.5).text.components(separatedBy: "\n").first { $0.contains("/rotating") }
        #expect(justStale?.contains("-1s stale") == true, "0.49 s past its freshness: \(justStale ?? "no /rotating row")")
        #expect(justStale?.contains("-0s") == false)
        let vary = try #require(text.components(separatedBy: "\n").first { $0.contains("/vary/lang") })
        #expect(vary.contains("1m14s"))
        let evil = try render(state, size: Self.size, now: 32).text.components(separatedBy: "\n").first { $0.contains("/evil") }
        #expect(evil?.contains(" 6s! ") == true, "6 s left of 30: expiring")
    }
}
