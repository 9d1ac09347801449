/// The expressions entered in the filter and search prompts, oldest first, for `↑` `↓`:
/// at most ``capacity``, each once (entering one again moves it to the end).
public struct FilterHistory: Sendable, Hashable {
    /// The most expressions kept: 50.
    public static let capacity = 50

    /// The expressions, oldest first.
    public private(set) var entries: [String] = []

    /// An empty history.
    public init() {}

    /// Adds `text` as the newest entry (blank texts are not kept).
    public mutating func add(_ text: String) {
        guard !text.allSatisfy(\.isWhitespace) else { return }
        entries.removeAll { $0 == text }
        entries.append(text)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
