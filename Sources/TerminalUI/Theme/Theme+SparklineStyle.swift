extension Theme {
    /// How sparklines are drawn under this theme: Unicode blocks (`▁▂▃▄▅▆▇█`), or plain ASCII
    /// (`_.-:=+*#`) when the theme uses no colour (`mono`: `NO_COLOR`, or a terminal that may
    /// lack the block glyphs' heights too). Gauges keep their block glyphs in every theme.
    public var sparklineStyle: Grid.BarStyle { usesColor ? .blocks : .ascii }
}
