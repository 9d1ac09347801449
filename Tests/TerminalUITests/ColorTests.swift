import Testing
@testable import TerminalUI

/// Colour syntax and the mappings onto 256 and 8 colours.
@Suite("Colours")
struct ColorTests {
    @Test("theme colour strings parse", arguments: [
        ("default", Color.default), ("green", .named(.green)), ("bright-red", .named(.brightRed)),
        ("0", .indexed(0)), ("244", .indexed(244)), ("255", .indexed(255)),
        ("#5fafff", .rgb(0x5F, 0xAF, 0xFF)), ("#5FAFFF", .rgb(0x5F, 0xAF, 0xFF)), ("#000000", .rgb(0, 0, 0)),
    ])
    func parses(text: String, expected: Color) {
        #expect(Color(parsing: text) == expected)
    }

    @Test("malformed colour strings are rejected", arguments: [
        "gren", "Green", "brightred", "256", "-1", "+5", " 5", "#5fafff0", "#5fa", "5fafff", "#ggaabb", "", "0x10",
    ])
    func rejects(text: String) {
        #expect(Color(parsing: text) == nil)
    }

    @Test("descriptions round-trip through parsing")
    func roundTrip() {
        let colors: [Color] = [.default, .named(.brightCyan), .indexed(7), .rgb(1, 0xAB, 0xFF)]
        for color in colors {
            #expect(Color(parsing: color.description) == color)
        }
        #expect(Color.rgb(1, 0xAB, 0xFF).description == "#01abff")
    }

    @Test("RGB maps to the nearest xterm-256 cube or grey entry", arguments: [
        (Color.rgb(0x5F, 0xAF, 0xFF), 75), (.rgb(0, 0, 0), 16), (.rgb(255, 255, 255), 231),
        (.rgb(0x80, 0x80, 0x80), 244), (.rgb(0xFF, 0x00, 0x00), 196), (.rgb(0x00, 0x2B, 0x36), 234),
        (.rgb(0x08, 0x08, 0x08), 232), (.rgb(0xEE, 0xEE, 0xEE), 255), (.rgb(0xD7, 0x87, 0xFF), 177),
    ])
    func nearest256(color: Color, index: Int) {
        #expect(color.xterm256Index == index)
    }

    @Test("names and indices keep their palette index; default has none")
    func fixedIndices() {
        #expect(Color.named(.black).xterm256Index == 0)
        #expect(Color.named(.brightWhite).xterm256Index == 15)
        #expect(Color.indexed(123).xterm256Index == 123)
        #expect(Color.default.xterm256Index == nil)
        #expect(Color.default.nearest8 == nil)
    }

    @Test("8-colour terminals get the nearest ANSI colour", arguments: [
        (Color.rgb(0x5F, 0xAF, 0xFF), Color.NamedColor.cyan), (.rgb(0xFF, 0x87, 0x00), .yellow),
        (.rgb(0x30, 0x30, 0x30), .black), (.rgb(0xDC, 0x32, 0x2F), .red), (.rgb(0x5F, 0xD7, 0x5F), .green),
        (.rgb(0x85, 0x99, 0x00), .yellow),   // solarized's olive green is nearer yellow by RGB distance
        (.named(.brightRed), .red), (.named(.magenta), .magenta), (.indexed(9), .red), (.indexed(15), .white),
        (.indexed(21), .blue), (.indexed(46), .green), (.indexed(252), .white), (.indexed(236), .black),
    ])
    func nearest8(color: Color, expected: Color.NamedColor) {
        #expect(color.nearest8 == expected)
    }

    @Test("palette index depends on the colours the terminal has")
    func paletteIndex() {
        let sky = Color.rgb(0x5F, 0xAF, 0xFF)
        #expect(sky.paletteIndex(forColorCount: 256) == 75)
        #expect(sky.paletteIndex(forColorCount: 16) == 6)
        #expect(sky.paletteIndex(forColorCount: 8) == 6)
        #expect(Color.named(.brightYellow).paletteIndex(forColorCount: 16) == 11)
        #expect(Color.named(.brightYellow).paletteIndex(forColorCount: 8) == 3)
        #expect(Color.default.paletteIndex(forColorCount: 256) == -1)
    }

    @Test("the xterm palette has the standard cube and grey ramp")
    func palette() {
        #expect(Color.rgb(ofXterm: 16) == (0, 0, 0))
        #expect(Color.rgb(ofXterm: 75) == (95, 175, 255))
        #expect(Color.rgb(ofXterm: 231) == (255, 255, 255))
        #expect(Color.rgb(ofXterm: 232) == (8, 8, 8))
        #expect(Color.rgb(ofXterm: 255) == (238, 238, 238))
        #expect(Color.rgb(ofXterm: 1) == (205, 0, 0))
    }
}
