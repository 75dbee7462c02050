package jsonview

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Wrap hard-wraps logical lines at w cells. Each visual line opens and closes its own
// styles, so any line can be drawn alone.
func Wrap(lines []Line, w int) []string {
	w = max(1, w)
	out := make([]string, 0, len(lines))
	var b strings.Builder
	for _, l := range lines {
		col := 0
		for _, sp := range l {
			t := sp.Text
			for t != "" {
				n, cw := fitCells(t, w-col)
				if n == 0 {
					if col > 0 {
						out = append(out, b.String())
						b.Reset()
						col = 0
						continue
					}
					_, n = utf8.DecodeRuneInString(t)
					cw = ansi.StringWidth(t[:n])
				}
				writeSpan(&b, t[:n], sp.SGR)
				col += cw
				t = t[n:]
			}
		}
		out = append(out, b.String())
		b.Reset()
	}
	return out
}

// fitCells returns how many bytes of t fit in room cells, and their width.
func fitCells(t string, room int) (n, cells int) {
	for n < len(t) {
		if c := t[n]; c < utf8.RuneSelf {
			if cells+1 > room {
				return n, cells
			}
			n++
			cells++
			continue
		}
		_, size := utf8.DecodeRuneInString(t[n:])
		cw := ansi.StringWidth(t[n : n+size])
		if cells+cw > room {
			return n, cells
		}
		n += size
		cells += cw
	}
	return n, cells
}

func writeSpan(b *strings.Builder, text, sgr string) {
	if sgr == "" {
		b.WriteString(text)
		return
	}
	b.WriteString(sgr)
	b.WriteString(text)
	b.WriteString(Reset)
}

// WrapIndented lays one logical line out in lines of at most w cells, for reading rather
// than for the exact text: it breaks after a space, never inside a word (a hyphen is part
// of its word: -0.5, 2026-07-28) unless the word is longer than a line, and continuation
// lines are indented two cells past the line's own indentation.
func WrapIndented(l Line, w int) []string {
	var r []rune
	var sgr []string
	for _, sp := range l {
		for _, c := range sp.Text {
			r = append(r, c)
			sgr = append(sgr, sp.SGR)
		}
	}
	indent := 0
	for indent < len(r) && r[indent] == ' ' {
		indent++
	}
	cont := min(indent+2, w/2)
	var out []string
	start, width := 0, w
	for first := true; ; first = false {
		lead := 0
		if !first {
			lead = cont
		}
		end, cells := start, lead
		for end < len(r) {
			cw := ansi.StringWidth(string(r[end]))
			if cells+cw > width && end > start {
				break
			}
			cells += cw
			end++
		}
		if end < len(r) {
			end = breakAtSpace(r, start, end, w-cont)
		}
		out = append(out, strings.Repeat(" ", lead)+runs(r[start:end], sgr[start:end]))
		if end >= len(r) {
			return out
		}
		start = end
	}
}

// breakAtSpace moves the end of the line r[start:end] back to just after its last space
// when the word cut there fits on a continuation line of room cells; a word longer than
// that is cut where the line is full.
func breakAtSpace(r []rune, start, end, room int) int {
	if r[end] == ' ' || r[end-1] == ' ' {
		return end // the line ends between words
	}
	wordEnd := end
	for wordEnd < len(r) && r[wordEnd] != ' ' {
		wordEnd++
	}
	for b := end - 1; b > start; b-- {
		if r[b] != ' ' {
			continue
		}
		if ansi.StringWidth(string(r[b+1:wordEnd])) > room {
			return end
		}
		for i := start; i < b; i++ {
			if r[i] != ' ' {
				return b + 1
			}
		}
		return end // only the line's indentation before the space
	}
	return end
}

// runs draws each run of runes that share an escape sequence; runs of spaces are drawn
// plainly.
func runs(r []rune, sgr []string) string {
	var b strings.Builder
	for i := 0; i < len(r); {
		j := i
		for j < len(r) && sgr[j] == sgr[i] {
			j++
		}
		seg := string(r[i:j])
		if strings.TrimSpace(seg) == "" {
			b.WriteString(seg)
		} else {
			writeSpan(&b, seg, sgr[i])
		}
		i = j
	}
	return b.String()
}
