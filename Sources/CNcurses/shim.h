// CNcurses: the C side of CacheScope's terminal wall.
//
// A system-library target cannot hold .c files, so every helper here is a `static inline`
// wrapper with the `cn_` prefix. Each one exists because Swift 6 cannot use the C thing it
// wraps directly: a function-like macro (which the importer drops), a mutable global (which
// strict concurrency rejects as "not concurrency-safe"), or a libc function the Glibc module
// does not expose. Only TerminalUI's `Terminal/` files (and one test helper) import this.
#ifndef CN_SHIM_H
#define CN_SHIM_H

// SwiftPM drops the `-D_XOPEN_SOURCE=600` that pkg-config gives, and without a wide-character
// define curses.h hides `cchar_t`, `wget_wch` and `wadd_wch`; so we ask for them here.
#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// MARK: Globals that strict concurrency rejects

/// `stdscr` is a mutable global; Swift 6 refuses to read it.
static inline WINDOW *cn_stdscr(void) { return stdscr; }

/// Glibc's `stdout` is a mutable global; `newterm` needs it as its output stream.
static inline FILE *cn_stdout(void) { return stdout; }

/// Glibc's `stdin` is a mutable global; `newterm` needs it as its input stream.
static inline FILE *cn_stdin(void) { return stdin; }

/// `COLORS` is a mutable global set by `start_color`.
static inline int cn_colors(void) { return COLORS; }

/// `COLOR_PAIRS` is a mutable global set by `start_color`.
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

// MARK: Capabilities

/// Whether the terminal can move its cursor to a given place (terminfo `cup`), without which
/// no screen can be drawn (`TERM=dumb`). `tigetstr` answers `(char *)-1` for a name that is
/// not a string capability, which Swift cannot compare a pointer with.
static inline int cn_can_address_cursor(void) {
    const char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

// MARK: Function-like macros the importer drops

/// `A_BOLD` is built by the `NCURSES_BITS` macro, which Swift cannot import.
static inline attr_t cn_attr_bold(void) { return A_BOLD; }

/// `A_DIM` is built by the `NCURSES_BITS` macro, which Swift cannot import.
static inline attr_t cn_attr_dim(void) { return A_DIM; }

/// `A_REVERSE` is built by the `NCURSES_BITS` macro, which Swift cannot import.
static inline attr_t cn_attr_reverse(void) { return A_REVERSE; }

/// `A_UNDERLINE` is built by the `NCURSES_BITS` macro, which Swift cannot import.
static inline attr_t cn_attr_underline(void) { return A_UNDERLINE; }

/// `KEY_F(n)` is a function-like macro.
static inline int cn_key_f(int n) { return KEY_F(n); }

// MARK: C library and terminfo helpers

/// `wcwidth` is not visible through Glibc in Swift 6.3; tests compare our pure-Swift width
/// tables with it.
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

/// `tigetstr` returns `(char *)-1` for "not a string capability", which Swift cannot compare
/// against; this folds it and "absent" into NULL. Used to precompute crash-restore bytes.
static inline const char *cn_tigetstr(const char *capname) {
    char *value = tigetstr(capname);
    return (value == (char *)-1) ? NULL : value;
}

#endif
