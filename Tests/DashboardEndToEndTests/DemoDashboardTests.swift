import Foundation
import Testing

extension EndToEndTests {
    /// The real `cachescope` binary in tmux: what a user sees and can do.
    @Suite("The demo dashboard in tmux", .needsTmux)
    struct DemoDashboardTests {
        @Test("--publish lets `cachescope attach` watch the same traffic and purge through the socket")
        func attach() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let (app, socket) = try await TmuxSession.publishingDemo(directory: directory, width: 200)
            defer { app.close() }

            let watcher = try TmuxSession([binary, "attach", socket], width: 120, height: 40)
            defer { watcher.close() }
            let attached = await watcher.waitFor(.seconds(60)) { screen in
                screen.hasPrefix("CacheScope  ATTACHED cachescope-demo") && (Screen.number(before: "requests", in: screen) ?? 0) > 0
            }
            try #require(attached.ok, "the attached dashboard shows no traffic:\n\(attached.screen)")
            #expect(Screen.statusLine(attached.screen).contains("attached to cachescope-demo (pid "), "names the process and its pid:\n\(attached.screen)")
            let before = Screen.number(before: "requests", in: attached.screen) ?? 0
            let rising = await watcher.waitFor { (Screen.number(before: "requests", in: $0) ?? 0) > before }
            #expect(rising.ok, "the attached request count does not rise:\n\(rising.screen)")

            watcher.type("e")
            let purged = await watcher.waitFor { Screen.statusLine($0).contains("whose freshness ran out") }
            #expect(purged.ok, "no result for e over the socket:\n\(purged.screen)")
            watcher.type("q")
            #expect(await watcher.waitForExit() == 0)
            app.type("q")
            #expect(await app.waitForExit() == 0)
        }

        @Test("When the app it watches quits, attach says so on its status line and logs to --log, never on the screen")
        func attachOutlivesApp() async throws {
            let binary = try #require(Binary.path, "\(Binary.SetupError.binaryNotFound)")
            let directory = try TemporaryDirectory()
            let (app, socket) = try await TmuxSession.publishingDemo(directory: directory)
            defer { app.close() }

            let log = directory.path("attach.log")
            let watcher = try TmuxSession([binary, "attach", socket, "--log", log], width: 120, height: 40)
            defer { watcher.close() }
            let attached = await watcher.waitFor(.seconds(60)) { $0.hasPrefix("CacheScope  ATTACHED") }
            try #require(attached.ok, "no attached dashboard:\n\(attached.screen)")
            app.type("q")
            #expect(await app.waitForExit() == 0)

            let ended = await watcher.waitFor(.seconds(30)) { Screen.statusLine($0).contains("events stopped") }
            #expect(ended.ok, "the attached dashboard does not say the app went away:\n\(ended.screen)")
            #expect(!ended.screen.contains("cachescope.dashboard"), "a log line was drawn on the screen:\n\(ended.screen)")
            let logged = try String(contentsOfFile: log, encoding: .utf8)
            #expect(logged.contains("cachescope.dashboard: event stream"), "the log file has no line about it:\n\(logged)")
            watcher.type("q")
            #expect(await watcher.waitForExit() == 0)
        }

        /// A line break in a paste into the prompt was Enter, and the letters after it keys: a
        /// pasted `e` purged expired entries, a `t` changed the theme.
        @Test("A paste is text for the prompt, never keys (the dashboard asks the terminal for bracketed paste); with no prompt open it is ignored")
        func paste() async throws {
            let directory = try TemporaryDirectory()
            let tmux = try TmuxSession.demo(["--rate", "5"], directory: directory)
            defer { tmux.close() }
            let first = await tmux.waitFor(.seconds(60)) { $0.contains("LIVE") && $0.contains("[1 Requests]") }
            try #require(first.ok, "no dashboard appeared:\n\(first.screen)")

            tmux.type("f")
            tmux.paste("outcome:miss\nt")
            let prompt = await tmux.waitFor { $0.contains("outcome:miss t") }
            #expect(prompt.ok, "the pasted line break and letter are not in the prompt:\n\(prompt.screen)")
            #expect(!Screen.statusLine(prompt.screen).contains("theme:"), "the pasted t changed the theme:\n\(prompt.screen)")
            tmux.press("Escape")

            tmux.paste("eD")
            let ignored = await tmux.waitFor { Screen.statusLine($0).contains("pasted text goes only into a prompt") }
            #expect(ignored.ok, "a paste without a prompt was not ignored:\n\(ignored.screen)")
            #expect(!ignored.screen.contains("purge every stored entry?"), "the pasted D asked to purge:\n\(ignored.screen)")
            tmux.type("q")
            #expect(await tmux.waitForExit() == 0)
        }

        @Test("Counts rise; 2 lists entries; d purges one; r brings a 304; q exits 0 and restores the terminal")
        func demoFlow() async throws {
            let directory = try TemporaryDirectory()
            let started = ContinuousClock.now
            let tmux = try TmuxSession.demo(["--rate", "5"], directory: directory)
            defer { tmux.close() }

            let first = await tmux.waitFor(.seconds(60)) { $0.contains("LIVE") && $0.contains("[1 Requests]") }
            try #require(first.ok, "no dashboard appeared:\n\(first.screen)")
            print("cachescope demo: first frame \(ContinuousClock.now - started) after starting tmux")
            #expect(tmux.alternateScreen)

            // Traffic: the request count rises while we watch.
            let some = await tmux.waitFor(.seconds(60)) { (Screen.number(before: "requests", in: $0) ?? 0) >= 3 }
            let before = try #require(Screen.number(before: "requests", in: some.screen), "no request count:\n\(some.screen)")
            let more = await tmux.waitFor(.seconds(60)) { (Screen.number(before: "requests", in: $0) ?? 0) >= before + 3 }
            #expect(more.ok, "the request count did not rise from \(before):\n\(more.screen)")
            #expect(more.screen.contains("✓ hit") && more.screen.contains("✗ miss"))

            // Entries view: wait for a max-age entry (they carry an ETag), open its details.
            tmux.type("2")
            let listed = await tmux.waitFor(.seconds(60)) { $0.contains("[2 Entries]") && $0.contains("/max-age/") }
            try #require(listed.ok, "no max-age entry was stored:\n\(listed.screen)")
            tmux.type("/max-age/")
            tmux.press("Enter")
            tmux.press("Enter")
            let detail = await tmux.waitFor { $0.contains("Entry details") && $0.contains("ETag") }
            try #require(detail.ok, "no entry details:\n\(detail.screen)")
            let key = try #require(detail.screen.components(separatedBy: "\n").first { $0.hasPrefix("GET http") },
                                   "no key line in the details:\n\(detail.screen)")
            let url = String(key.dropFirst(4))
            let path = String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })

            // r: a conditional request; the origin answers 304 and the status line says so.
            tmux.type("r")
            let refreshed = await tmux.waitFor { Screen.statusLine($0).contains("refresh \(url): revalidated") }
            #expect(refreshed.ok, "no revalidation result for \(url):\n\(refreshed.screen)")

            // d: the entry is purged; the details say so, and the Entries view no longer lists it.
            tmux.type("d")
            let purged = await tmux.waitFor { Screen.statusLine($0).contains("purged 1 entry of \(url)") }
            #expect(purged.ok, "no purge result for \(url):\n\(purged.screen)")
            let gone = await tmux.waitFor { $0.contains("no longer stored (purged or evicted)") }
            #expect(gone.ok, "the details still show the entry as stored:\n\(gone.screen)")
            tmux.press("Escape")
            let list = await tmux.waitFor { screen in
                screen.contains("[2 Entries]") && !Screen.rows(below: " KEY", in: screen).contains { Screen.firstField($0).hasSuffix(path) }
            }
            #expect(list.ok, "\(path) is still listed after the purge:\n\(list.screen)")

            // The revalidation is in the Requests view as a row of its own.
            tmux.type("1")
            let row = await tmux.waitFor { screen in
                screen.contains("[1 Requests]")
                    && Screen.rows(below: " TIME", in: screen).contains { $0.contains(path) && $0.contains("↻ REVALIDATED 304 (refresh") }
            }
            #expect(row.ok, "no REVALIDATED row for \(path):\n\(row.screen)")

            // f: a filter narrows the Requests view to hits; the header shows it; Esc clears it (after the search).
            tmux.type("foutcome:hit")
            tmux.press("Enter")
            let filtered = await tmux.waitFor { screen in
                let rows = Screen.rows(below: " TIME", in: screen).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                return screen.components(separatedBy: "\n").first?.contains("filter outcome:hit") == true
                    && !rows.isEmpty && rows.allSatisfy { $0.contains("✓ HIT") } && screen.contains(" of ")
            }
            #expect(filtered.ok, "the filter did not narrow the Requests view to hits:\n\(filtered.screen)")
            tmux.press("Escape")   // the search kept from the Entries view goes first…
            tmux.press("Escape")   // …then the filter
            let unfiltered = await tmux.waitFor { !$0.contains("filter outcome:hit") && $0.contains("✗ MISS") }
            #expect(unfiltered.ok, "Esc did not clear the filter:\n\(unfiltered.screen)")

            // M marks the rows a filter lists; d previews them and y purges exactly what it counted.
            tmux.type("furl:max-age")
            tmux.press("Enter")
            tmux.type("M")
            let marked = await tmux.waitFor { Screen.statusLine($0).contains("marked (every row matching url:max-age)") }
            #expect(marked.ok, "M did not mark the filtered rows:\n\(marked.screen)")
            tmux.type("d")
            let preview = await tmux.waitFor { $0.contains("marked keys?") && $0.contains("of them hit in the last minute") }
            try #require(preview.ok, "no purge preview:\n\(preview.screen)")
            let counted = try #require(preview.screen.components(separatedBy: "\n").first { $0.contains("of them hit in the last minute") })
            tmux.type("y")
            let purging = await tmux.waitFor { Screen.statusLine($0).contains("purg") && !$0.contains("marked keys?") }
            #expect(purging.ok, "y did not purge:\n\(purging.screen)\n(preview: \(counted))")
            tmux.press("Escape")

            // Space freezes; ← rewinds through the recent live history, → steps forward; F follows again.
            func header(_ screen: String) -> String { screen.components(separatedBy: "\n").first ?? "" }
            tmux.type(" ")
            let frozen = await tmux.waitFor { header($0).contains("LIVE FROZEN ") }
            #expect(frozen.ok, "Space did not freeze the display:\n\(frozen.screen)")
            tmux.press("Left")
            let rewound = await tmux.waitFor { header($0).contains("LIVE REWIND ") && Screen.statusLine($0).contains("rewound to") }
            #expect(rewound.ok, "← did not rewind:\n\(rewound.screen)")
            tmux.press("Right")
            let forward = await tmux.waitFor { $0 != rewound.screen && header($0).contains("LIVE REWIND ") }
            #expect(forward.ok, "→ did not step forward:\n\(forward.screen)")
            tmux.type("F")
            let following = await tmux.waitFor { screen in
                !header(screen).contains("FROZEN") && !header(screen).contains("REWIND") && Screen.statusLine(screen).contains("following new requests")
            }
            #expect(following.ok, "F did not follow live traffic again:\n\(following.screen)")

            // 3: the Stats view draws the latency histogram — bars of outcome glyphs over a
            // logarithmic axis — and the sparklines run under the header.
            tmux.type("3")
            let stats = await tmux.waitFor { screen in
                let lines = screen.components(separatedBy: "\n")
                return screen.contains("[3 Stats]") && screen.contains("Latency by outcome")
                    && lines.contains { $0.contains("└─") } && lines.contains { $0.contains("1ms") && $0.contains("10ms") }
                    && lines.contains { $0.contains("│") && ($0.contains("✓") || $0.contains("✗")) }
                    && lines.count > 4 && lines[4].hasPrefix("req/s ") && lines[4].contains("peak")
            }
            #expect(stats.ok, "no latency histogram or sparklines:\n\(stats.screen)")

            // q: the process ends with status 0 and the terminal is back to its normal screen.
            tmux.type("q")
            let status = await tmux.waitForExit()
            #expect(status == 0)
            #expect(!tmux.alternateScreen)
            #expect(!tmux.screen().contains("LIVE"), "the dashboard is still on the screen after exit")
        }
    }
}
