public import TerminalUI
public import TrafficFilter

/// The one-line prompt of `f` (filter) and `/` (search): its text, the parse error of that
/// text (shown with its column before anything is applied), history with `↑` `↓` and field
/// completion with `Tab`. A pure value: ``edit(_:history:)`` takes a key and says what happened.
public struct FilterPrompt: Sendable, Hashable {
    /// What the prompt is for.
    public enum Purpose: Sendable, Hashable {
        /// `f`: the view shows only matching rows.
        case filter
        /// `/`: the selection jumps to matching rows (`n` / `N`).
        case search
        /// `:`: a command line, `purge FILTER`, which previews the entries to purge.
        case purge

        /// The prompt's first characters on the status line.
        public var sigil: String {
            switch self {
            case .filter: "f "
            case .search: "/"
            case .purge: ":"
            }
        }
    }

    /// The command a `:` prompt holds before its filter.
    public static let purgeCommand = "purge "

    /// The most characters the prompt holds. The text is checked after every key, so a long
    /// paste costs the square of its length; a filter needs far fewer (10,000 pasted
    /// characters kept the dashboard busy for 25 s).
    public static let maximumLength = 1_000

    /// What a key did to the prompt.
    public enum Outcome: Sendable, Hashable {
        /// The text changed (or not): keep editing.
        case editing
        /// `Enter` on a text that parses (`nil`: a blank text, which clears).
        case submitted(Filter?)
        /// `Enter` on a text that does not parse: nothing is applied, the prompt stays.
        case refused(FilterParseError)
        /// `Esc`.
        case cancelled
    }

    /// Filter or search.
    public var purpose: Purpose
    /// The text typed so far.
    public private(set) var text: String
    /// Why ``text`` does not parse, or `nil` when it does (or is blank).
    public private(set) var error: FilterParseError?
    /// What `Tab` found when several names fit (shown until the next key).
    public private(set) var candidates: [String] = []
    /// The history entry shown, while browsing with `↑` `↓`.
    private var historyPosition: Int?
    /// What was typed before browsing the history, restored by `↓` past the newest entry.
    private var draft = ""

    /// A prompt starting with `text` (the active filter, when `f` is pressed again).
    public init(_ purpose: Purpose, text: String = "") {
        self.purpose = purpose
        self.text = text
        check()
    }

    /// The filter ``text`` compiles to, when it parses and is not blank (compiled once per
    /// change of the text, when it is checked).
    public private(set) var filter: Filter?

    /// The filter expression in ``text`` and the columns before it (`purge ` in a `:` prompt);
    /// `nil` when a `:` prompt does not start with `purge `.
    private var expression: (text: Substring, offset: Int)? {
        guard purpose == .purge else { return (text[...], 0) }
        guard text.hasPrefix(Self.purgeCommand) else { return nil }
        return (text.dropFirst(Self.purgeCommand.count), Self.purgeCommand.count)
    }

    private static func isBlank(_ text: Substring) -> Bool { text.allSatisfy(\.isWhitespace) }

    /// Applies one key.
    public mutating func edit(_ key: Key, history: FilterHistory) -> Outcome {
        candidates = []
        switch key {
        case .enter:
            if let error { return .refused(error) }
            return .submitted(filter)
        case .escape:
            return .cancelled
        case .backspace, .delete:
            if !text.isEmpty { text.removeLast() }
        case .character(let character):
            guard text.count < Self.maximumLength else { return refusingLength() }
            text.append(character)
        case .tab:
            let completion = FilterCompletion(text)
            // A completion is text too: past the limit it is refused as a key would be.
            guard completion.completed.count <= Self.maximumLength else { return refusingLength() }
            text = completion.completed
            if completion.candidates.count > 1 { candidates = completion.candidates }
        case .up:
            browse(history, by: -1)
        case .down:
            browse(history, by: 1)
        default:
            return .editing
        }
        if key != .up, key != .down { historyPosition = nil }
        check()
        return .editing
    }

    private mutating func browse(_ history: FilterHistory, by step: Int) {
        let entries = history.entries
        guard !entries.isEmpty else { return }
        if historyPosition == nil { draft = text }
        let next = (historyPosition ?? entries.count) + step
        if next >= entries.count {
            historyPosition = nil
            text = draft
        } else {
            historyPosition = max(0, next)
            text = entries[max(0, next)]
        }
    }

    /// Says that the text would grow past its limit (and keeps it as it is): `Enter` then does
    /// not apply it, as a paste cut at the limit should not be.
    private mutating func refusingLength() -> Outcome {
        error = .unexpected(column: Self.maximumLength + 1, found: "more text", expected: "at most \(Self.maximumLength) characters in the prompt")
        return .editing
    }

    private mutating func check() {
        filter = nil
        guard let expression else {
            let word = text.prefix { !$0.isWhitespace }
            error = .unexpected(column: 1, found: word.isEmpty ? "the end of the line" : "\"\(word)\"",
                                expected: "purge FILTER (the only command)")
            return
        }
        if Self.isBlank(expression.text) {
            error = nil
            return
        }
        do {
            filter = try Filter(String(expression.text))
            error = nil
        } catch {
            self.error = error.shifted(by: expression.offset)
        }
    }
}
