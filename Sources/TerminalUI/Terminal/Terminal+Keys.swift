import CNcurses
import Foundation
import Synchronization

/// Reading keys with `wget_wch` and turning ncurses codes into ``Key``s. This is the only
/// place that knows ncurses key numbers.
extension Terminal {
    /// Waits up to `timeoutMilliseconds` (0: just poll, negative: forever) for a key and
    /// returns it, or `nil` on timeout or before ``start()``.
    ///
    /// A terminal resize arrives as ``Key/resize`` (ncurses reports it through the key
    /// stream; no SIGWINCH handler is installed).
    public func readKey(timeoutMilliseconds: Int) -> Key? {
        state.withLock { state in
            guard let window = state.window else { return nil }
            wtimeout(window, Int32(clamping: max(-1, timeoutMilliseconds)))
            var input: wint_t = 0
            switch wget_wch(window, &input) {
            case KEY_CODE_YES:
                return KeyDecoder.key(forKeyCode: Int(input))
            case OK:
                guard let scalar = Unicode.Scalar(UInt32(input)) else { return .unknown(Int(input)) }
                return Key(inputCharacter: scalar)
            default:
                return nil
            }
        }
    }

    /// Whether standard input's terminal was hung up (its window closed, its tmux session
    /// killed) and no SIGHUP came: calls on it then fail with EIO (a terminal that is merely
    /// not this process's controlling one, under `setsid`, fails with ENOTTY instead). Keys
    /// can never arrive again.
    var isHungUp: Bool { tcgetpgrp(STDIN_FILENO) == -1 && errno == EIO }

    /// The signal (SIGINT, SIGTERM or SIGHUP) that arrived while the terminal was active, if any.
    var pendingSignal: Int32? { state.withLock { $0.pendingSignal } }

    /// Tells the signal handler whether a loop will notice ``pendingSignal`` (`true`) or the
    /// handler must restore the terminal and exit itself (`false`).
    func setLoopActive(_ active: Bool) {
        state.withLock { $0.loopActive = active }
    }
}

/// ncurses key codes (`KEY_*`, delivered with `KEY_CODE_YES`) to ``Key``.
enum KeyDecoder {
    /// The codes ``Terminal/start()`` has ncurses give the bracketed-paste brackets
    /// (`define_key`): past `KEY_MAX`, where no terminfo key is.
    static let pasteStartCode: Int32 = 0o1100
    static let pasteEndCode: Int32 = 0o1101

    /// What turns bracketed paste on and off (xterm's mode 2004): the terminal then sends
    /// pasted text between `ESC [ 200 ~` and `ESC [ 201 ~`, so a pasted line break is not Enter
    /// and the letters after it are not commands.
    static let bracketedPasteOn = Array("\u{1B}[?2004h".utf8)
    static let bracketedPasteOff = Array("\u{1B}[?2004l".utf8)

    private static let table: [Int: Key] = [
        Int(pasteStartCode): .pasteStart, Int(pasteEndCode): .pasteEnd,
        Int(KEY_UP): .up, Int(KEY_DOWN): .down, Int(KEY_LEFT): .left, Int(KEY_RIGHT): .right,
        Int(KEY_PPAGE): .pageUp, Int(KEY_NPAGE): .pageDown,
        Int(KEY_HOME): .home, Int(KEY_END): .end, Int(KEY_BEG): .home, Int(KEY_LL): .end,
        Int(KEY_ENTER): .enter, Int(KEY_BTAB): .backTab, Int(KEY_BACKSPACE): .backspace,
        Int(KEY_DC): .delete, Int(KEY_IC): .insert, Int(KEY_RESIZE): .resize,
    ]

    /// The ``Key`` for an ncurses key code; function keys F1–F63 become ``Key/function(_:)``
    /// and codes without a case ``Key/unknown(_:)``.
    static func key(forKeyCode code: Int) -> Key {
        if let key = table[code] { return key }
        let functionNumber = code - Int(cn_key_f(0))
        if (1...63).contains(functionNumber) { return .function(functionNumber) }
        return .unknown(code)
    }
}
