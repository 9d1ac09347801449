import TerminalUI

extension Grid {
    /// Writes spans left to right from (`x`, `y`), at most `maxWidth` columns; the last span
    /// that does not fit ends in `…`. Returns the columns used.
    @discardableResult
    mutating func write(_ spans: [Span], x: Int, y: Int, maxWidth: Int) -> Int {
        var used = 0
        var remaining = spans.width
        for span in spans {
            let room = maxWidth - used
            guard room > 0 else { break }
            let spanWidth = span.width
            remaining -= spanWidth
            // Cut here when this span does not fit, or fills the room exactly with more to come.
            if spanWidth > room || (spanWidth == room && remaining > 0) {
                used += write(span.text, x: x + used, y: y, role: span.role, attributes: span.attributes,
                              maxWidth: room, overflow: .ellipsis)
                if spanWidth == room {
                    // The span itself fitted: put the ellipsis over its last column.
                    write("…", x: x + used - 1, y: y, role: span.role, attributes: span.attributes, maxWidth: 1)
                }
                break
            }
            used += writeFast(span, x: x + used, y: y, maxWidth: room)
        }
        return used
    }

    /// Writes one span that fits. Text of ``TextWidth/isSimple(_:)`` characters — nearly all a
    /// dashboard shows — is placed a character a cell, skipping the per-grapheme Unicode
    /// measuring of ``Grid/write(_:x:y:role:attributes:maxWidth:overflow:)`` (where a 200×60
    /// frame would otherwise spend most of its time); anything else goes through that write.
    private mutating func writeFast(_ span: Span, x: Int, y: Int, maxWidth: Int) -> Int {
        let scalars = span.text.unicodeScalars
        guard x >= 0, scalars.allSatisfy(TextWidth.isSimple) else {
            return write(span.text, x: x, y: y, role: span.role, attributes: span.attributes, maxWidth: maxWidth)
        }
        var column = x
        for scalar in scalars {
            guard column - x < maxWidth, column < width else { break }
            fill(x: column, y: y, width: 1, height: 1, role: span.role, character: Character(scalar), attributes: span.attributes)
            column += 1
        }
        return column - x
    }
}
