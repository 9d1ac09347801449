import Testing
@testable import TerminalUI

/// Key decoding where it is pure: input characters and ncurses key numbers.
@Suite("Keys")
struct KeyTests {
    @Test("input characters map to keys", arguments: [
        (0x0D, Key.enter), (0x0A, .enter), (0x09, .tab), (0x1B, .escape), (0x7F, .backspace), (0x08, .backspace),
        (0x01, .control("a")), (0x03, .control("c")), (0x0C, .control("l")), (0x1A, .control("z")),
        (0x00, .control("@")), (0x1C, .control("\\")), (0x1F, .control("_")), (0x9B, .unknown(0x9B)),
        (0x71, .character("q")), (0x20, .character(" ")), (0xE9, .character("é")), (0x6771, .character("東")),
    ] as [(UInt32, Key)])
    func inputCharacters(value: UInt32, expected: Key) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(Key(inputCharacter: scalar) == expected)
    }

    /// ncurses' key numbers are part of its ABI (curses.h: KEY_DOWN is 0402 and so on).
    @Test("ncurses key codes map to keys", arguments: [
        (0o402, Key.down), (0o403, .up), (0o404, .left), (0o405, .right), (0o406, .home),
        (0o407, .backspace), (0o411, .function(1)), (0o414, .function(4)), (0o424, .function(12)),
        (0o512, .delete), (0o513, .insert), (0o522, .pageDown), (0o523, .pageUp), (0o527, .enter),
        (0o541, .backTab), (0o550, .end), (0o632, .resize), (0o410, .unknown(0o410)), (0o777, .unknown(0o777)),
    ] as [(Int, Key)])
    func keyCodes(code: Int, expected: Key) {
        #expect(KeyDecoder.key(forKeyCode: code) == expected)
    }

    @Test("keys have the short names help screens show")
    func names() {
        #expect(Key.up.description == "↑")
        #expect(Key.pageDown.description == "PgDn")
        #expect(Key.function(1).description == "F1")
        #expect(Key.control("l").description == "Ctrl-L")
        #expect(Key.character(" ").description == "Space")
        #expect(Key.character("G").description == "G")
        #expect(Key.backTab.description == "Shift-Tab")
    }
}
