/// A key press (or a resize), as layout and key tables see it.
///
/// ``Terminal/readKey(timeoutMilliseconds:)`` produces these from ncurses codes; nothing
/// outside `Terminal/` sees a raw key code. Printable input arrives as ``character(_:)``
/// (any Unicode grapheme), Ctrl+letter as ``control(_:)`` with the lowercase letter.
///
/// ```swift
/// switch key {
/// case .character("q"), .escape: return .quit
/// case .down, .character("j"): selection += 1; return .redraw
/// case .control("l"): return .redraw
/// default: return .continue
/// }
/// ```
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// Arrow keys.
    case up, down, left, right
    /// Paging keys.
    case pageUp, pageDown, home, end
    /// Editing and navigation keys; `backTab` is Shift-Tab.
    case enter, escape, tab, backTab, backspace, delete, insert
    /// A function key: `function(1)` is F1.
    case function(Int)
    /// A printable character, including non-ASCII (`"é"`, `"東"`).
    case character(Character)
    /// Ctrl plus a letter (or `@ [ \ ] ^ _`); the letter is lowercase: `control("c")`.
    case control(Character)
    /// The terminal changed size; the screen loop re-reads the size and repaints.
    case resize
    /// The start and the end of pasted text (bracketed paste, `ESC [ 200 ~` … `ESC [ 201 ~`):
    /// the keys between are text the user pasted, not keys they pressed.
    case pasteStart, pasteEnd
    /// A key code ncurses reported that has no case here, kept for logging.
    case unknown(Int)

    /// A short name as help screens write it: `"↑"`, `"PgDn"`, `"F1"`, `"Ctrl-L"`, `"q"`.
    public var description: String {
        switch self {
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .insert: "Ins"
        case .function(let number): "F\(number)"
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let character): "Ctrl-" + String(character).uppercased()
        case .resize: "resize"
        case .pasteStart: "paste start"
        case .pasteEnd: "paste end"
        case .unknown(let code): "key \(code)"
        }
    }

    /// The key a single input character stands for: Enter for CR/LF, Tab, Escape,
    /// Backspace for DEL/BS, Ctrl+letter for other C0 controls, else ``character(_:)``.
    ///
    /// This is the pure half of key decoding (the ncurses half lives in `Terminal/`).
    public init(inputCharacter scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x0A, 0x0D: self = .enter
        case 0x09: self = .tab
        case 0x1B: self = .escape
        case 0x7F, 0x08: self = .backspace
        case 0x00: self = .control("@")
        case 0x01...0x1A: self = .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0x1C...0x1F: self = .control(Character(Unicode.Scalar(scalar.value + 0x40)!))
        case 0x80...0x9F: self = .unknown(Int(scalar.value))
        default: self = .character(Character(scalar))
        }
    }
}
