import CacheEvents
import CacheStore
import Testing
import TerminalUI
import TrafficFilter
@testable import Dashboard

/// Marks, `d` on marks and `:purge FILTER`: the preview, the y/n question, and that `y`
/// sends exactly the keys whose entries the preview counted.
@Suite("Marks and purge with a preview")
struct PurgePreviewTests {
    private func type(_ text: String) -> [Key] { text.map { Key.character($0) } }

    private func sample() -> DashboardState {
        var state = SampleSession.state()
        state.interface.now = SampleSession.now
        return state
    }

    /// What purging `keys` removes from the dashboard's table: every entry under them,
    /// as the store's `evicted(.purged)` events report it.
    private func removed(by commands: [DashboardEffect], from state: DashboardState) -> [EntryRecord] {
        let keys = Set(commands.flatMap { effect -> [String] in
            switch effect {
            case .send(.purge(let key)): [key]
            case .purgeEach(let targets): targets.keys.map(\.key)
            default: []
            }
        })
        var after = state
        for entry in state.shown.entries.all where keys.contains(entry.ref.key) {
            after.apply(CacheEvent(seq: 0, time: SampleSession.now, kind: .evicted(
                Evicted(entry: entry.ref, reason: .purged, tier: .both, size: entry.size))))
        }
        let remaining = Set(after.shown.entries.all.map(\.ref))
        return state.shown.entries.all.filter { !remaining.contains($0.ref) }
    }

    @Test("M marks the keys of every row the filter lists; d previews them; y purges exactly what was previewed")
    func markMatchingAndPurge() throws {
        var state = sample()
        press([.character("f")] + type("url:max-age | url:vary") + [.enter, .character("M")], on: &state)
        let listed = RequestWindow(log: state.shown.requests, interface: state.interface, rows: 100).serials
            .compactMap { state.shown.requests[serial: $0]?.cacheKey }
        #expect(!listed.isEmpty)
        #expect(state.interface.marks == Set(listed.map { PurgeTarget(key: $0) }))
        #expect(state.interface.status?.text.hasPrefix("\(Set(listed).count) marked (every row matching url:max-age | url:vary)") == true)

        press([.character("d")], on: &state)
        guard case .confirmPurge(let preview)? = state.interface.overlay else {
            Issue.record("no preview: \(String(describing: state.interface.overlay))")
            return
        }
        let stored = state.shown.entries.all.filter { Set(listed).contains($0.ref.key) }
        #expect(preview.entries == stored.count && preview.entries > 0)
        #expect(preview.bytes == stored.reduce(0) { $0 + $1.size })
        #expect(preview.recentlyHit == stored.filter { ($0.lastAccess ?? -.infinity) >= SampleSession.now - 60 }.count)
        #expect(preview.selection == "\(Set(listed).count) marked keys")
        let screen = try render(state, size: TerminalSize(columns: 120, rows: 40)).text
        #expect(screen.contains("Purge \(preview.selection)?"))
        #expect(screen.contains(preview.summary))

        let effects = press([.character("y")], on: &state)
        #expect(state.interface.overlay == nil)
        // Several keys: one effect for them all, so that their results make one report.
        #expect(effects == [.purgeEach(preview.entriesByTarget), .redraw])
        let gone = removed(by: effects, from: state)
        #expect(gone.count == preview.entries, "the preview's count is what the purge removes")
        #expect(gone.reduce(0) { $0 + $1.size } == preview.bytes)
        #expect(state.interface.marks.isDisjoint(with: preview.targets))
    }

    /// `d` on one of a key's Vary variants purged them all, its message the only word of it.
    @Test("d on an entry that is one of its key's Vary variants previews them all and asks; d on a key's only entry purges at once")
    func variantsAskFirst() throws {
        var state = sample()
        let key = SampleSession.key("/vary/lang?id=1")
        state.apply(CacheEvent(seq: 500, time: SampleSession.now, kind: .stored(Stored(
            entry: EntryRef(key: key, variant: "accept-language=\"de\""), tier: .memory, size: 1400, ttl: 120, etag: "\"de1\"",
            lastModified: nil, status: 200))))
        press([.character("2"), .character("f")] + type("url:vary") + [.enter], on: &state)
        press([.character("d")], on: &state)
        guard case .confirmPurge(let preview)? = state.interface.overlay else {
            Issue.record("no preview: \(String(describing: state.interface.overlay))")
            return
        }
        #expect(preview.entries == 2)
        #expect(preview.selection == "the 2 Vary variants of \(key)")
        let effects = press([.character("y")], on: &state)
        #expect(effects.contains { if case .send(.purge(key)) = $0 { true } else if case .purgeEach = $0 { true } else { false } }, "\(effects)")

        var single = sample()
        press([.character("2"), .character("f")] + type("url:evil") + [.enter], on: &single)
        let direct = press([.character("d")], on: &single)
        #expect(single.interface.overlay == nil)
        #expect(direct.contains { if case .send(.purge) = $0 { true } else { false } }, "\(direct)")
    }

    @Test(":purge FILTER previews the entries it matches, whole keys; n cancels")
    func purgeByFilter() throws {
        var state = sample()
        press([.character(":")], on: &state)
        #expect(state.interface.prompt?.text == "purge ")
        let promptLine = try render(state, size: TerminalSize(columns: 120, rows: 40)).text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(promptLine.contains(":purge ▏  purge FILTER or purge tag:NAME · Enter previews what it removes"), "\(promptLine)")
        #expect(!promptLine.contains("search"))
        press(type("size>1KB") + [.enter], on: &state)
        guard case .confirmPurge(let preview)? = state.interface.overlay else {
            Issue.record("no preview: \(String(describing: state.interface.overlay))")
            return
        }
        let matching = Set(state.shown.entries.all.filter { $0.size > 1024 }.map(\.ref.key))
        #expect(preview.keys == matching.sorted())
        #expect(preview.selection == "purge size>1KB")
        #expect(press([.character("n")], on: &state) == [.redraw])
        #expect(state.interface.overlay == nil)
        #expect(state.interface.status?.text == "purge cancelled")
    }

    /// The sample session plus three variants of one key and one other entry, tagged as a
    /// store's `stored` events name them: `sale shoes`, `sale`, none, and `shoes`.
    private func tagged() -> DashboardState {
        var state = sample()
        let stored: [(String, String, Int, [String]?)] = [
            ("GET https://shop.example/a", "lang=en", 1_000, ["sale", "shoes"]),
            ("GET https://shop.example/a", "lang=fr", 2_000, ["sale"]),
            ("GET https://shop.example/a", "lang=de", 4_000, nil),
            ("GET https://shop.example/b", "", 8_000, ["shoes"]),
        ]
        for (key, variant, size, tags) in stored {
            state.apply(CacheEvent(seq: 0, time: SampleSession.now, kind: .stored(Stored(
                entry: EntryRef(key: key, variant: variant), tier: .memory, size: size, ttl: 60, etag: nil, lastModified: nil,
                status: 200, tags: tags))))
        }
        return state
    }

    @Test(":purge tag:NAME previews exactly the tagged variants (not whole keys) and y sends one purgeTag; the removal equals the preview")
    func purgeByTag() throws {
        var state = tagged()
        press([.character(":")] + type("tag:sale") + [.enter], on: &state)
        guard case .confirmPurge(let preview)? = state.interface.overlay else {
            Issue.record("no preview: \(String(describing: state.interface.overlay))")
            return
        }
        #expect(preview.entries == 2)
        #expect(preview.bytes == 3_000)
        #expect(preview.selection == "purge tag:sale")
        #expect(preview.summary == "2 entries, 2.9 KiB, 0 of them hit in the last minute")
        let screen = try render(state, size: TerminalSize(columns: 120, rows: 40)).text
        #expect(screen.contains("Purge purge tag:sale?") || screen.contains(preview.summary), "\(screen)")

        let effects = press([.character("y")], on: &state)
        #expect(effects == [.send(.purgeTag(tag: "sale")), .redraw])
        // What the client's tag purge reports: one evicted(purge) per tagged entry, then purged(tag).
        var after = state
        for entry in state.shown.entries.all where entry.tags.contains("sale") {
            after.apply(CacheEvent(seq: 0, time: SampleSession.now, kind: .evicted(
                Evicted(entry: entry.ref, reason: .purged, tier: .both, size: entry.size))))
        }
        after.apply(CacheEvent(seq: 0, time: SampleSession.now, kind: .purged(Purged(scope: .tag("sale"), count: 2))))
        let remaining = Set(after.shown.entries.all.map(\.ref))
        let gone = state.shown.entries.all.filter { !remaining.contains($0.ref) }
        #expect(gone.count == preview.entries)
        #expect(gone.reduce(0) { $0 + $1.size } == preview.bytes)
        #expect(remaining.contains(EntryRef(key: "GET https://shop.example/a", variant: "lang=de")), "the untagged variant of the same key stays")
    }

    @Test(":purge with tag: inside a larger filter purges the matching keys, as any filter; an unknown tag has nothing to purge")
    func tagInsideFilter() {
        var state = tagged()
        press([.character(":")] + type("tag:shoes & url:/b") + [.enter], on: &state)
        guard case .confirmPurge(let preview)? = state.interface.overlay else {
            Issue.record("no preview: \(String(describing: state.interface.overlay))")
            return
        }
        #expect(preview.commands == [.purge(key: "GET https://shop.example/b")])
        var nothing = tagged()
        press([.character(":")] + type("tag:none") + [.enter], on: &nothing)
        #expect(nothing.interface.overlay == nil)
        #expect(nothing.interface.status?.text == "nothing stored to purge (purge tag:none)")
    }

    @Test("in a fleet the preview's keys, holders, instances and entry count all follow its counts by key and instance; y unmarks exactly what it purges")
    func fleetPreviewViews() {
        var make = FleetEvents()
        var state = FleetFixture.state(FleetFixture.roster("web", "api", "db"))
        let a = "GET http://example.com/a", b = "GET http://example.com/b", c = "GET http://example.com/c"
        for event in make.miss(a, id: 1, instance: 0) + make.miss(a, id: 1, instance: 2) + make.miss(b, id: 2, instance: 2)
            + make.miss(c, id: 3, instance: 1) {
            state.apply(event)
        }
        let preview = PurgePreview(
            targets: [PurgeTarget(key: a, instance: 0), PurgeTarget(key: a, instance: 2), PurgeTarget(key: b, instance: 2)],
            table: state.shown.entries, now: 2, selection: "3 marked keys")
        #expect(preview.entriesByTarget == [
            PurgeTarget(key: a, instance: 0): 1, PurgeTarget(key: a, instance: 2): 1, PurgeTarget(key: b, instance: 2): 1,
        ])
        #expect(preview.entries == 3)
        #expect(preview.bytes == 300)
        #expect(preview.keys == [a, b])
        #expect(preview.holders == [a: [0, 2], b: [2]])
        #expect(preview.instances == [0, 2])
        #expect(preview.commands == [.purge(key: a), .purge(key: b)])
        #expect(preview.tag == nil)

        // What the user sees on y: each instance told only its keys, the purged marks gone from
        // the marks column, and c, marked in api but not in this preview, still marked.
        let other = PurgeTarget(key: c, instance: 1)
        state.interface.marks = [PurgeTarget(key: a, instance: 0), PurgeTarget(key: a, instance: 2), PurgeTarget(key: b, instance: 2), other]
        state.interface.overlay = .confirmPurge(preview)
        #expect(press([.character("y")], on: &state) == [.purgeEach(preview.entriesByTarget), .redraw])
        #expect(state.interface.marks == [other])
        #expect(state.interface.status?.text == "purging 3 entries, 300 B, 0 of them hit in the last minute…")
    }

    @Test("the : prompt shows errors at their column in the whole line, and needs purge and a filter")
    func purgePromptErrors() {
        var state = sample()
        press([.character(":")] + type("outcome:gr"), on: &state)
        #expect(state.interface.prompt?.error?.column == 15)
        var other = sample()
        press([.character(":"), .backspace, .backspace, .backspace, .backspace, .backspace, .backspace] + type("prune x"), on: &other)
        #expect(other.interface.prompt?.error?.description == "column 1: expected purge FILTER (the only command), found \"prune\"")
        var blank = sample()
        press([.character(":"), .enter], on: &blank)
        #expect(blank.interface.overlay == nil)
        #expect(blank.interface.status?.kind == .failure)
        #expect(blank.interface.status?.text.hasPrefix("purge needs a filter") == true)
        var nothing = sample()
        press([.character(":")] + type("host:nowhere.invalid") + [.enter], on: &nothing)
        #expect(nothing.interface.overlay == nil)
        #expect(nothing.interface.status?.text == "nothing stored to purge (purge host:nowhere.invalid)")
    }

    @Test("--read-only refuses every command that changes the cache; the footer and the help say so")
    func readOnly() throws {
        var state = sample()
        state.interface.readOnly = true
        for key: Key in [.character("m"), .character("M")] {
            press([key], on: &state)
            #expect(state.interface.marks.isEmpty)
            #expect(state.interface.status == StatusMessage(DashboardState.marksReadOnly, kind: .failure), "\(key): says why marks are refused")
        }
        for key: Key in [.character("d"), .character("D"), .character("e"), .character("r"), .character("R"), .character(":")] {
            let effects = press([key], on: &state)
            #expect(!effects.contains { if case .send = $0 { true } else { false } }, "\(key)")
            #expect(state.interface.overlay == nil && state.interface.prompt == nil, "\(key)")
            #expect(state.interface.status == StatusMessage(DashboardState.readOnlyRefusal, kind: .failure), "\(key)")
        }
        let screen = try render(state, size: TerminalSize(columns: 120, rows: 40)).text
        let footer = screen.split(separator: "\n").dropLast().last.map(String.init) ?? ""
        #expect(footer.contains("read-only"))
        #expect(!footer.contains("d purge"))
        press([.character("?")], on: &state)
        #expect(try render(state, size: TerminalSize(columns: 120, rows: 40)).text.contains(DashboardState.readOnlyRefusal))
    }
}
