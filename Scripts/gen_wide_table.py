# Generates Sources/TerminalUI/Text/WideCharacterTable.swift from the East Asian Width data
# (Unicode 17.0.0 W and F ranges) that the python `wcwidth` package (0.7.0) ships.
# Regional indicators are left out: a lone one is 1 column (as glibc); a flag pair is handled
# per grapheme cluster in DisplayWidth.
# python-wcwidth drops wide characters it treats as combining or ignorable; the spacing ones
# (U+302E-302F Hangul tone marks, U+3164 Hangul filler) are added back from Python's own
# unicodedata (Unicode 14), so the table agrees with EastAsianWidth.txt and glibc there.
import sys
import unicodedata
from wcwidth.table_wide import WIDE_EASTASIAN
points = set()
for a, b in WIDE_EASTASIAN['17.0.0']:
    points.update(range(a, b + 1))
for c in range(0x110000):
    ch = chr(c)
    if unicodedata.east_asian_width(ch) in ('W', 'F') and unicodedata.category(ch) not in ('Cn', 'Mn', 'Me', 'Cf'):
        points.add(c)
points -= set(range(0x1F1E6, 0x1F200))
ranges = []
for c in sorted(points):
    if ranges and ranges[-1][1] == c - 1:
        ranges[-1] = (ranges[-1][0], c)
    else:
        ranges.append((c, c))
pairs = [f"0x{a:05X}, 0x{b:05X}" for a, b in ranges]
lines = []
for i in range(0, len(pairs), 4):
    lines.append("        " + ", ".join(pairs[i:i+4]) + ",")
out = f'''/// Code-point ranges that terminals draw two columns wide: East Asian Width `W` (wide) and
/// `F` (fullwidth) from Unicode 17.0.0's EastAsianWidth.txt, which covers CJK ideographs,
/// kana, Hangul syllables, fullwidth forms and emoji with default emoji presentation.
///
/// Generated (not hand-written) from the `W`/`F` ranges that python-wcwidth 0.7.0 ships in
/// `table_wide.py`, plus the spacing `W` characters that table drops (such as U+302E–302F
/// and U+3164, taken from Python's `unicodedata`), minus the regional indicators
/// U+1F1E6–1F1FF (one column alone, as in glibc; a flag pair is two columns, see
/// ``DisplayWidth``).
/// {len(ranges)} ranges.
enum WideCharacterTable {{
    /// Inclusive ranges as flat `start, end` pairs, sorted and non-overlapping, for a binary
    /// search. A flat `[UInt32]` keeps the table compact and fast to type-check.
    static let ranges: [UInt32] = [
{chr(10).join(lines)}
    ]

    /// Whether `value` lies in one of the ranges.
    static func contains(_ value: UInt32) -> Bool {{
        var low = 0
        var high = ranges.count / 2 - 1
        while low <= high {{
            let middle = (low + high) / 2
            if value < ranges[2 * middle] {{
                high = middle - 1
            }} else if value > ranges[2 * middle + 1] {{
                low = middle + 1
            }} else {{
                return true
            }}
        }}
        return false
    }}
}}
'''
sys.stdout.write(out)
