import Testing
@testable import TerminalUI

/// Writing text into a grid: measuring, clipping, wide graphemes, and what never gets in.
@Suite("Grid writing")
struct GridWriteTests {
    @Test("ASCII text lands cell by cell and reports the columns used")
    func asciiText() {
        var grid = Grid(width: 12, height: 2)
        let used = grid.write("hit 200", x: 2, y: 1, role: .hit)
        #expect(used == 7)
        #expect(grid.text == "\n  hit 200")
        #expect(grid.roleMask([.hit: "h"]) == "\n  hhhhhhh")
    }

    @Test("text is clipped at the right edge of the grid")
    func clipsAtEdge() {
        var grid = Grid(width: 5, height: 1)
        #expect(grid.write("abcdefgh", x: 2, y: 0) == 3)
        #expect(grid.text == "  abc")
    }

    @Test("maxWidth limits text before the edge")
    func clipsAtMaxWidth() {
        var grid = Grid(width: 20, height: 1)
        grid.write("abcdefgh", x: 1, y: 0, maxWidth: 4)
        grid.write("|", x: 5, y: 0)
        #expect(grid.text == " abcd|")
    }

    @Test("the ellipsis option ends cut text with … inside the limit")
    func ellipsis() {
        var grid = Grid(width: 20, height: 3)
        grid.write("https://example.com/long", x: 0, y: 0, maxWidth: 10, overflow: .ellipsis)
        grid.write("short", x: 0, y: 1, maxWidth: 10, overflow: .ellipsis)
        grid.write("abc", x: 0, y: 2, maxWidth: 1, overflow: .ellipsis)
        #expect(grid.text == "https://e…\nshort\n…")
    }

    @Test("a wide character takes two cells, the second a continuation")
    func wideCharacters() throws {
        var grid = Grid(width: 12, height: 1)
        #expect(grid.write("HIT ✓ 東京", x: 0, y: 0, role: .hit) == 10)
        #expect(grid.text == "HIT ✓ 東京")
        #expect(grid.roleMask([.hit: "h"]) == "hhhhhhhhhh")
        let leader = try #require(grid[6, 0])
        let continuation = try #require(grid[7, 0])
        #expect(leader.character == "東" && !leader.isContinuation && leader.width == 2)
        #expect(continuation.isContinuation && continuation.width == 0)
    }

    @Test("a wide character that would straddle the edge is not drawn; the gap is blank")
    func wideAtEdge() throws {
        var grid = Grid(width: 5, height: 1)
        grid.fill(role: .border, character: "#")
        #expect(grid.write("ab東京", x: 1, y: 0, role: .text) == 4)
        #expect(grid.text == "#ab東")
        var clipped = Grid(width: 6, height: 1)
        clipped.fill(role: .border, character: "#")
        clipped.write("abc東", x: 0, y: 0, role: .text, maxWidth: 4)
        #expect(clipped.text == "abc ##")
        #expect(clipped.roleMask([.text: "t", .border: "b"]) == "ttttbb")
    }

    @Test("ellipsis after a wide character that does not fit")
    func ellipsisWithWide() {
        var grid = Grid(width: 10, height: 1)
        grid.fill(role: .border, character: "#")
        grid.write("ab東京", x: 0, y: 0, role: .text, maxWidth: 4, overflow: .ellipsis)
        #expect(grid.text == "ab… ######")
    }

    @Test("overwriting half of a wide character blanks its other half")
    func overwriteHalf() throws {
        var grid = Grid(width: 6, height: 1)
        grid.write("東京", x: 0, y: 0)
        grid.write("x", x: 1, y: 0)   // right half of 東
        #expect(grid.text == " x京")
        grid.write("y", x: 2, y: 0)   // left half of 京
        #expect(grid.text == " xy")
        #expect(grid[3, 0]?.isContinuation == false)
    }

    @Test("combining marks stay with their base in one cell")
    func combining() throws {
        var grid = Grid(width: 6, height: 1)
        #expect(grid.write("e\u{301}a\u{308}!", x: 0, y: 0) == 3)
        #expect(grid[0, 0]?.character == "e\u{301}")
        #expect(grid[1, 0]?.character == "a\u{308}")
        #expect(grid.text == "e\u{301}a\u{308}!")
    }

    @Test("emoji sequences are one grapheme two columns wide")
    func emoji() throws {
        var grid = Grid(width: 10, height: 1)
        #expect(grid.write("👨‍👩‍👧🇯🇵❤️👍🏽", x: 0, y: 0) == 8)
        #expect(grid[0, 0]?.character == "👨‍👩‍👧")
        #expect(grid[2, 0]?.character == "🇯🇵")
        #expect(grid[4, 0]?.character == "❤️")
        #expect(grid[6, 0]?.character == "👍🏽")
        #expect(grid[7, 0]?.isContinuation == true)
    }

    @Test("control characters become U+FFFD and zero-width graphemes are dropped")
    func controlsNeverStored() {
        var grid = Grid(width: 10, height: 1)
        let used = grid.write("a\u{1B}[2J\u{202E}b\u{7}", x: 0, y: 0)
        #expect(used == 7)
        #expect(grid.text == "a\u{FFFD}[2Jb\u{FFFD}")
        #expect(grid.cells.allSatisfy { !DisplayWidth.isControl($0.character) })
    }

    @Test("writing outside the grid does nothing; negative x clips on the left")
    func outside() {
        var grid = Grid(width: 6, height: 1)
        #expect(grid.write("abc", x: 0, y: 1) == 0)
        #expect(grid.write("abc", x: 9, y: 0) == 0)
        #expect(grid.write("東京xyz", x: -3, y: 0) == 7)
        #expect(grid.text == " xyz")
    }
}
