import CacheEvents
import SessionLog
import HTTPCaching
import TerminalUI
import TrafficFilter

/// The help: every key of the current mode (from ``KeyTable``), the outcome glyphs, the TTL
/// colours, and the definition of every figure.
enum HelpContent {
    static func lines(state: DashboardState, width: Int) -> [[Span]] {
        let replay = state.interface.mode.isReplay
        var lines: [[Span]] = []
        var group = ""
        for binding in KeyTable.bindings(replay: replay) {
            if binding.group != group {
                if !group.isEmpty { lines.append([]) }
                group = binding.group
                lines.append(TextViews.heading(group == "Replay" ? "Replay (digits seek; Tab switches views)" : group))
            }
            let label = "  " + binding.label + String(repeating: " ", count: max(1, 12 - TextWidth.of(binding.label)))
            lines += TextViews.wrap([Span(label, .key), Span(binding.help)], width: width, indent: 14)
        }
        if state.interface.readOnly {
            lines += TextViews.wrap([Span("  " + DashboardState.readOnlyRefusal + " (d D e r R :)", .warning)], width: width, indent: 4)
        }
        if !state.interface.mode.canSendCommands {
            lines += TextViews.wrap([Span("  " + DashboardState.replayCannotSend, .dim)], width: width, indent: 4)
        }

        lines.append([])
        lines += filterLanguage(width: width)

        lines.append([])
        lines.append(TextViews.heading("Outcomes"))
        for outcome in CacheOutcome.allCases {
            let label = "  \(OutcomeStyle.glyph(outcome)) \(OutcomeStyle.label(outcome))"
            lines += TextViews.wrap(
                [Span(label + String(repeating: " ", count: max(1, 16 - TextWidth.of(label))), OutcomeStyle.role(outcome)),
                 Span(FigureDefinitions.outcome(outcome))],
                width: width, indent: 16)
        }
        let coalesced = "  \(OutcomeStyle.coalescedGlyph) coalesced"
        lines += TextViews.wrap(
            [Span(coalesced + String(repeating: " ", count: max(1, 16 - TextWidth.of(coalesced))), .coalesced), Span(FigureDefinitions.coalesced)],
            width: width, indent: 16)

        lines.append([])
        lines.append(TextViews.heading("TTL (Entries view)"))
        lines += TextViews.wrap([Span("  42s      ", .ttlFresh), Span("fresh: more than 10 s and more than a fifth of its lifetime left")],
                                width: width, indent: 11)
        lines += TextViews.wrap([Span("  4s!      ", .ttlExpiring), Span("expiring soon: at most 10 s or a fifth of its lifetime left")],
                                width: width, indent: 11)
        lines += TextViews.wrap([Span("  -12s     ", .ttlExpired), Span("stale: its freshness ran out 12 s ago")],
                                width: width, indent: 11)

        lines.append([])
        lines.append(TextViews.heading("Figures"))
        let figures: [(String, String)] = [
            ("request hit ratio", FigureDefinitions.hitRatio),
            ("byte hit ratio", FigureDefinitions.byteHitRatio),
            ("from cache", FigureDefinitions.bytesFromCache),
            ("from network", FigureDefinitions.bytesFromNetwork),
            ("saved", FigureDefinitions.bytesSaved),
            ("req/s", FigureDefinitions.requestRate),
            ("p50 / p99", FigureDefinitions.latencyP50 + "; " + FigureDefinitions.latencyP99),
            ("evictions/s", "entries leaving the store per second over the last 10 s, by cause: capacity, expired, purged, corrupt, invalidated (by a POST, PUT, DELETE or PATCH)"),
            ("memory / disk", "bytes the store uses in each tier, against its capacity"),
            ("entries", FigureDefinitions.entries),
            ("events dropped", FigureDefinitions.dropped),
            ("sparklines", FigureDefinitions.sparklines),
            ("latency histogram", FigureDefinitions.histogram),
            ("expiring", FigureDefinitions.expiring),
            ("top missed URLs", FigureDefinitions.missedURLs),
            ("evictions over time", FigureDefinitions.evictionsOverTime),
        ]
        for (name, definition) in figures {
            let label = "  " + name + String(repeating: " ", count: max(1, 20 - TextWidth.of(name)))
            lines += TextViews.wrap([Span(label, .text, attributes: .bold), Span(definition, .dim)], width: width, indent: 22)
        }

        lines.append([])
        lines.append([Span("Theme: ", .dim), Span(Escaped.text(state.interface.themeName)), Span("  (t for the next one)", .dim)])
        return lines
    }

    /// The filter language in short (`f`, `/`, `:purge`, `--filter`); docs/filter.md has it all.
    static func filterLanguage(width: Int) -> [[Span]] {
        var lines = [TextViews.heading("Filter language (f, /, :purge, --filter; docs/filter.md)")]
        for field in FilterField.allCases {
            lines += TextViews.wrap([Span("  " + field.help)], width: width, indent: 4)
        }
        lines += TextViews.wrap(
            [Span("  ! not, & and (or a space), | or, ( ); : contains or equals, = equals, ~ regex, < <= > >=; "
                + "\"quote\" values with spaces or & | ( ); a field a row lacks never matches", .dim)],
            width: width, indent: 4)
        return lines
    }
}
