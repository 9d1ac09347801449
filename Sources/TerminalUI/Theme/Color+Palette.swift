/// Mapping colours onto what a terminal can show: the xterm-256 palette, and the eight ANSI
/// colours for terminals with fewer than 256.
extension Color {
    /// An RGB triple.
    public typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

    /// The eight base ANSI colours, in palette order (index 0–7).
    public static let ansi8: [NamedColor] = [.black, .red, .green, .yellow, .blue, .magenta, .cyan, .white]

    /// The xterm-256 index this colour is painted with on a 256-colour terminal, or `nil` for
    /// ``default``.
    ///
    /// Named colours keep their 0–15 index; `#rrggbb` becomes the nearest entry of the 6×6×6
    /// cube or the grey ramp (16–255) by RGB distance. Entries 0–15 are never chosen for an RGB
    /// colour because terminals redefine them freely.
    public var xterm256Index: Int? {
        switch self {
        case .default: nil
        case .named(let name): name.index
        case .indexed(let index): Int(index)
        case .rgb(let r, let g, let b): Self.nearestIndex(to: (r, g, b), in: 16...255)
        }
    }

    /// The ANSI colour (0–7) used on 8- and 16-colour terminals, or `nil` for ``default``.
    ///
    /// A bright name maps to its base colour (`bright-red` → `red`), as 8-colour terminals do;
    /// indices 0–15 likewise map to `index % 8`; other indices and RGB colours map to the
    /// nearest of the eight by RGB distance, using xterm's default palette.
    public var nearest8: NamedColor? {
        switch self {
        case .default:
            return nil
        case .named(let name):
            return Self.ansi8[name.index % 8]
        case .indexed(let index) where index < 16:
            return Self.ansi8[Int(index) % 8]
        case .indexed(let index):
            return Self.ansi8[Self.nearestIndex(to: Self.rgb(ofXterm: Int(index)), in: 0...7)]
        case .rgb(let r, let g, let b):
            return Self.ansi8[Self.nearestIndex(to: (r, g, b), in: 0...7)]
        }
    }

    /// The palette index to paint with on a terminal reporting `colorCount` colours
    /// (ncurses' `COLORS`), or `-1` for the terminal default.
    ///
    /// 256 or more: ``xterm256Index``. 16 to 255: named colours keep 0–15 and everything else
    /// uses ``nearest8``. Fewer than 16: ``nearest8``.
    public func paletteIndex(forColorCount colorCount: Int) -> Int {
        guard let full = xterm256Index else { return -1 }
        if colorCount >= 256 { return full }
        if colorCount >= 16, full < 16 { return full }
        return nearest8.map { $0.index } ?? -1
    }

    /// The RGB value xterm shows for a palette index (0–255) with its default palette.
    public static func rgb(ofXterm index: Int) -> RGB {
        switch index {
        case 0..<16:
            let table: [RGB] = [
                (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
                (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
                (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
                (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
            ]
            return table[index]
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
        default:
            let grey = UInt8(8 + 10 * (min(index, 255) - 232))
            return (grey, grey, grey)
        }
    }

    // MARK: Nearest match

    /// The palette index in `candidates` closest to `rgb` by squared RGB distance; ties go to
    /// the lowest index so results are stable.
    static func nearestIndex(to rgb: RGB, in candidates: ClosedRange<Int>) -> Int {
        var best = candidates.lowerBound
        var bestDistance = Int.max
        for index in candidates {
            let other = Self.rgb(ofXterm: index)
            let dr = Int(rgb.red) - Int(other.red)
            let dg = Int(rgb.green) - Int(other.green)
            let db = Int(rgb.blue) - Int(other.blue)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}
