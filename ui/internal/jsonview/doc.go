// Package jsonview is the one JSON renderer of the interactive views: the detail pane, the
// explorer, the server page, results and the replay report all draw JSON through it, in the
// colours of one Palette, so a value looks the same wherever it is shown.
//
// It has two tokenisers that colour alike: Colorize, a one-pass colouriser that re-indents
// as it goes (fast enough for rows and for a body's first paint), and Highlighter, chroma's
// JSON lexer, whose style is the same Palette (Palette.Token maps each token type to a
// class of the palette). The lexer is chroma's JSON rules written out in lexer.go, so chroma's
// registry of every language, built when a program starts, is not linked. Both produce Lines of Spans; Wrap and WrapIndented lay them out at
// a width. Text never reaches the terminal raw: control characters, invalid UTF-8 and
// characters that reorder or hide text are shown as visible escapes in the Escape colour.
//
// It is also the one home of that escaping for every view and report, JSON or not:
// EscapeRune decides how each such character is shown (\x1b, \u200b, \U000e0041), and
// EscapeText (plain text), Visible and VisibleProse (the views' text, escapes in reverse
// video, MarkOn/MarkOff) and EscapeJSON (the CLI's JSON output, as \u escapes with the same
// value) apply it.
package jsonview
