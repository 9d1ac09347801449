/// A terminal colour as a theme names it.
///
/// Theme files write colours as one of:
/// - `"default"`: the terminal's own foreground or background;
/// - an ANSI name: `black red green yellow blue magenta cyan white`, each also as
///   `bright-…` (`"bright-red"`);
/// - an xterm-256 index `0…255`, as a JSON number or a string (`244`, `"244"`);
/// - `"#rrggbb"`, shown as the nearest xterm-256 colour (``xterm256Index``).
///
/// On terminals with fewer than 256 colours every colour falls back to one of the eight ANSI
/// colours (``nearest8``).
///
/// ```swift
/// let c = try Color(parsing: "#5fafff")   // .rgb(0x5f, 0xaf, 0xff)
/// c.xterm256Index                         // 75
/// c.nearest8                              // .cyan
/// ```
public enum Color: Hashable, Sendable, CustomStringConvertible {
    /// The terminal's default colour (ncurses' `-1` with `use_default_colors`).
    case `default`
    /// One of the 16 ANSI colours by name.
    case named(NamedColor)
    /// An xterm-256 palette index.
    case indexed(UInt8)
    /// A 24-bit colour, painted as its nearest xterm-256 index.
    case rgb(UInt8, UInt8, UInt8)

    /// The 16 ANSI colour names; raw values are the spellings theme files use.
    public enum NamedColor: String, CaseIterable, Hashable, Sendable {
        /// The eight base colours, palette 0–7.
        case black, red, green, yellow, blue, magenta, cyan, white
        /// Their bright variants, palette 8–15 (`"bright-red"` in theme files).
        case brightBlack = "bright-black", brightRed = "bright-red",
             brightGreen = "bright-green", brightYellow = "bright-yellow",
             brightBlue = "bright-blue", brightMagenta = "bright-magenta",
             brightCyan = "bright-cyan", brightWhite = "bright-white"

        /// The palette index: 0–7 for the base colours, 8–15 for the bright ones.
        public var index: Int { Self.allCases.firstIndex(of: self)! }
    }

    /// Parses a colour string as theme files write it.
    ///
    /// Accepts `default`, the 16 ANSI names, a decimal index `0`–`255` and `#rrggbb`
    /// (case-insensitive hex). Surrounding whitespace is not allowed.
    /// - Returns: `nil` when the string is none of these.
    public init?(parsing text: String) {
        if text == "default" {
            self = .default
        } else if let name = NamedColor(rawValue: text) {
            self = .named(name)
        } else if text.utf8.allSatisfy({ (48...57).contains($0) }), let index = UInt8(text) {
            self = .indexed(index)
        } else if let rgb = Self.parseHex(text) {
            self = .rgb(rgb.0, rgb.1, rgb.2)
        } else {
            return nil
        }
    }

    /// The spelling a theme file would use for this colour.
    public var description: String {
        switch self {
        case .default: "default"
        case .named(let name): name.rawValue
        case .indexed(let index): String(index)
        case .rgb(let r, let g, let b):
            "#" + [r, g, b].map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
        }
    }

    // MARK: Parsing

    private static func parseHex(_ text: String) -> (UInt8, UInt8, UInt8)? {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var bytes: [UInt8] = []
        for pair in stride(from: 1, to: 7, by: 2) {
            guard let high = hexValue(digits[pair]), let low = hexValue(digits[pair + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return (bytes[0], bytes[1], bytes[2])
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
