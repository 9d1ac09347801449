/// Colour pairs allocated lazily, one per (foreground, background) combination in use.
///
/// curses paints with numbered pairs that must be registered with `init_pair` before use.
/// The painter asks this table for the pair of each role's colours; a combination seen for
/// the first time gets the next free number (and the caller registers it), later frames reuse
/// it. Pair 0 is curses' fixed default/default pair and is also what callers get once every
/// pair is taken, so a theme with absurdly many combinations degrades to default colours
/// instead of failing.
struct ColorPairTable {
    /// Foreground and background palette indices; -1 is the terminal default.
    struct Colors: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// How many pairs the terminal supports (curses' `COLOR_PAIRS`); 0 means no colours.
    let capacity: Int
    private(set) var numbers: [Colors: Int16] = [:]

    init(capacity: Int = 0) {
        self.capacity = max(0, capacity)
    }

    /// The pair number for `colors`, calling `register(number, colors)` the first time a
    /// combination is seen. Returns 0 for default/default, when the table is full, or when
    /// `register` reports failure.
    mutating func number(for colors: Colors, register: (Int16, Colors) -> Bool) -> Int16 {
        if colors.foreground == -1, colors.background == -1 { return 0 }
        if let known = numbers[colors] { return known }
        let next = numbers.count + 1
        guard next < capacity, register(Int16(next), colors) else { return 0 }
        numbers[colors] = Int16(next)
        return Int16(next)
    }
}
