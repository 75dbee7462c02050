package ui

import (
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// JSON in the inspector's views is drawn by ui/internal/jsonview in the colours of
// Styles.JSON: rows and results by its one-pass colouriser, the detail pane first by the
// colouriser and then by chroma's highlighter with the same palette, so nothing changes
// colour when the highlighting arrives.

// ColorizeJSON colours src for a terminal: pretty-printed with a two-space indent when
// indent is set, compact otherwise. Invalid JSON never panics; what cannot be read is shown
// escaped. Rows use the compact form, the detail pane the indented one.
func ColorizeJSON(s *Styles, src []byte, indent bool) string {
	return jsonview.String(jsonview.Colorize(s.JSON(), src, jsonview.Options{Indent: indent}).Lines)
}

// escapeText returns server text as the views show it: every character a terminal must not
// get raw as its escape (jsonview.EscapeRune), set apart in reverse video
// (jsonview.Visible), so it can go inside text of any style.
func escapeText(s string) string { return jsonview.Visible(s) }

// escapeProse is escapeText for prose that keeps its line breaks (descriptions,
// instructions): each line escaped, the line feeds kept.
func escapeProse(s string) string { return jsonview.VisibleProse(s) }

// cutUTF8 returns n, moved back so b[:n] does not split a UTF-8 sequence.
func cutUTF8[T string | []byte](b T, n int) int { return jsonview.CutUTF8(b, n) }
