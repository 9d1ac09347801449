import Testing
@testable import TerminalUI

/// Filling, copying, bars and the too-small frame.
@Suite("Grid layout helpers")
struct GridLayoutTests {
    @Test("fill paints a clipped rectangle with a role")
    func fill() {
        var grid = Grid(width: 6, height: 3)
        grid.fill(x: 1, y: 1, width: 10, height: 1, role: .selection, character: "=")
        #expect(grid.text == "\n =====\n")
        #expect(grid.roleMask([.selection: "s"]) == "\n sssss\n")
    }

    @Test("fill blanks a wide character it cuts in half")
    func fillCutsWide() {
        var grid = Grid(width: 4, height: 1)
        grid.write("東京", x: 0, y: 0)
        grid.fill(x: 1, y: 0, width: 2, role: .text, character: "-")
        #expect(grid.text == " --")
    }

    @Test("draw copies a sub-grid, clipping wide characters at the edge")
    func drawSubGrid() {
        var panel = Grid(width: 4, height: 2)
        panel.write("ab東", x: 0, y: 0, role: .hit)
        panel.write("cd", x: 0, y: 1, role: .miss)
        var screen = Grid(width: 5, height: 3)
        screen.draw(panel, x: 2, y: 1)
        #expect(screen.text == "\n  ab\n  cd")
        #expect(screen.roleMask([.hit: "h", .miss: "m"]) == "\n  hhh\n  mm")
    }

    @Test("trailing spaces are trimmed from text but coloured blanks show in the role mask")
    func trimming() {
        var grid = Grid(width: 5, height: 1)
        grid.fill(role: .status)
        grid.write("ok", x: 0, y: 0, role: .status)
        #expect(grid.text == "ok")
        #expect(grid.roleMask([.status: "s"]) == "sssss")
    }

    @Test("bars use eighth blocks, clamp the fraction and keep their width", arguments: [
        (0.0, 8, "        "), (0.5, 8, "████    "), (1.0, 4, "████"), (0.3, 5, "█▌   "),
        (1.7, 3, "███"), (-2.0, 3, "   "), (Double.nan, 2, "  "), (0.01, 8, "▏       "),
    ])
    func blockBars(fraction: Double, width: Int, expected: String) {
        #expect(Grid.bar(fraction: fraction, width: width) == expected)
        #expect(DisplayWidth.of(expected) == width)
    }

    @Test("ASCII bars round to whole cells")
    func asciiBars() {
        #expect(Grid.bar(fraction: 0.5, width: 8, style: .ascii) == "####....")
        #expect(Grid.bar(fraction: 0.26, width: 4, style: .ascii) == "#...")
        #expect(Grid.bar(fraction: 0, width: 0, style: .ascii) == "")
    }

    @Test("a gauge colours its filled part and its track differently")
    func gauge() {
        var grid = Grid(width: 12, height: 1)
        grid.gauge(fraction: 0.25, x: 1, y: 0, width: 8)
        #expect(grid.text == " ██")
        #expect(grid.roleMask([.gauge: "#", .gaugeEmpty: "."]) == " ##......")
    }

    @Test("the too-small frame names both sizes and is centred")
    func tooSmall() {
        let grid = Grid.terminalTooSmall(size: TerminalSize(columns: 40, rows: 5), minimum: TerminalSize(columns: 80, rows: 24))
        #expect(grid.text == [
            "",
            "           Terminal too small",
            "     80×24 needed, this one is 40×5",
            "    enlarge the window, or q to quit",
            "",
        ].joined(separator: "\n"))
        #expect(grid.roleMask([.warning: "w"]).split(separator: "\n").first == "           wwwwwwwwwwwwwwwwww")
        #expect(Grid.fits(TerminalSize(columns: 80, rows: 24), minimum: TerminalSize(columns: 80, rows: 24)))
        #expect(!Grid.fits(TerminalSize(columns: 80, rows: 23), minimum: TerminalSize(columns: 80, rows: 24)))
    }

    @Test("the too-small frame still fits a tiny terminal")
    func tooSmallTiny() {
        let grid = Grid.terminalTooSmall(size: TerminalSize(columns: 8, rows: 1), minimum: TerminalSize(columns: 80, rows: 24))
        #expect(grid.text == "Termina…")
    }
}
